"""An explicit call budget: a hard stop on requests and tokens, shared by every worker.

A *call* is one HTTP request to a provider, retries included; cache hits and replays are
free. Calls are reserved before they are sent, so the call limit is never exceeded, even
under concurrency. Tokens are only known afterwards: the token limit stops new calls once
it is reached, so in-flight calls may overshoot it by at most one call each.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from simulator.errors import UsageError
from simulator.live.errors import BudgetExhausted


class Spend(BaseModel):
    """What live calls have cost so far (cumulative over resumes of one run directory)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    calls: int = Field(default=0, ge=0)
    input_tokens: int = Field(default=0, ge=0)
    output_tokens: int = Field(default=0, ge=0)
    cost_usd: float = Field(default=0.0, ge=0)

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens


class CallBudget:
    """Thread-safe spend counter with optional limits; ``None`` means unlimited.

    With a ``ledger`` file, every change is written to it before the call goes on: a call
    is on disk before its request is sent, so a run killed at any point (kill -9 mid-call
    included) has recorded at least every call it made, and a resumed run can never send
    more than ``max_calls`` in all. A call whose record was lost to the kill is counted
    and then made again: the budget may be spent on it twice, never exceeded.
    """

    def __init__(self, *, max_calls: int | None = None, max_tokens: int | None = None,
                 spent: Spend | None = None, ledger: Path | None = None) -> None:
        self.max_calls, self.max_tokens = max_calls, max_tokens
        self._lock = threading.Lock()
        self._spent = spent or Spend()
        self.ledger = ledger

    @property
    def spent(self) -> Spend:
        with self._lock:
            return self._spent

    def reserve_call(self) -> None:
        """Count one request about to be sent, or raise :class:`BudgetExhausted`."""
        with self._lock:
            spent = self._spent
            if self.max_calls is not None and spent.calls >= self.max_calls:
                raise BudgetExhausted(f"call budget spent ({spent.calls} of {self.max_calls} "
                                      "calls)")
            if self.max_tokens is not None and spent.tokens >= self.max_tokens:
                raise BudgetExhausted(f"token budget spent ({spent.tokens} of "
                                      f"{self.max_tokens} tokens)")
            self._record(spent.model_copy(update={"calls": spent.calls + 1}))

    def add_usage(self, input_tokens: int, output_tokens: int, cost_usd: float | None) -> None:
        with self._lock:
            s = self._spent
            self._record(s.model_copy(update={
                "input_tokens": s.input_tokens + input_tokens,
                "output_tokens": s.output_tokens + output_tokens,
                "cost_usd": s.cost_usd + (cost_usd or 0.0),
            }))

    def _record(self, spent: Spend) -> None:
        """Take ``spent`` as the spend (the lock is held), on disk first when there is a
        ledger: if the write fails, nothing is counted and the call is not sent."""
        if self.ledger is not None:
            write_spend(self.ledger, spent)
        self._spent = spent

    def describe(self) -> str:
        """``calls 12/100 tok 3.4k`` for the progress bar."""
        s = self.spent
        calls = f"{s.calls}/{self.max_calls}" if self.max_calls is not None else f"{s.calls}"
        tokens = _short(s.tokens) + (f"/{_short(self.max_tokens)}"
                                     if self.max_tokens is not None else "")
        cost = f" ${s.cost_usd:.2f}" if s.cost_usd else ""
        return f"calls {calls} tok {tokens}{cost}"


def read_spend(path: Path) -> Spend:
    """The spend recorded in ``path`` (none yet when there is no file)."""
    if not path.is_file():
        return Spend()
    try:
        return Spend.model_validate_json(path.read_text())
    except ValidationError:
        raise UsageError(f"{path}: not a spend record; it counts the calls this run "
                         "directory has made, so it is not reset: restore or remove it "
                         "knowingly") from None


def write_spend(path: Path, spent: Spend) -> None:
    """Replace ``path`` with ``spent`` atomically: a reader sees the old or the new spend.

    The temp file is this process's and thread's own, so writers never share one.
    """
    tmp = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(spent.model_dump_json(indent=1))
    os.replace(tmp, path)


def _short(n: int) -> str:
    return f"{n / 1e6:.1f}M" if n >= 1e6 else f"{n / 1e3:.1f}k" if n >= 1e3 else str(n)
