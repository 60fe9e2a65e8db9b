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

    With a ``ledger`` file, every change is written before the call goes on: a call is on
    disk before its request is sent, so a run killed at any point (kill -9 mid-call
    included) has recorded at least every call it made, and a resumed run can never send
    more than ``max_calls`` in all. A call whose record was lost to the kill is counted
    and then made again: the budget may be spent on it twice, never exceeded.

    Each change is one line appended to the ledger's journal (``<ledger>.journal``), not a
    rewrite of the ledger: an append is a single small write, where replacing the file
    costs a create, a write and a rename, twice per record (a fifth of the live loop's CPU
    at 32 concurrent calls). :meth:`checkpoint` writes the ledger itself and empties the
    journal; the runner calls it whenever it flushes records.
    """

    def __init__(self, *, max_calls: int | None = None, max_tokens: int | None = None,
                 spent: Spend | None = None, ledger: Path | None = None) -> None:
        self.max_calls, self.max_tokens = max_calls, max_tokens
        self._lock = threading.Lock()
        self._spent = spent or Spend()
        self.ledger = ledger
        self._journal: tuple[Path, int] | None = None
        """The open journal of the ledger (its path and file descriptor)."""

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
            os.write(self._journal_fd(self.ledger), spent.model_dump_json().encode() + b"\n")
        self._spent = spent

    def _journal_fd(self, ledger: Path) -> int:
        if self._journal is None or self._journal[0] != ledger:
            self.close()
            fd = os.open(journal_of(ledger), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            self._journal = (ledger, fd)
        return self._journal[1]

    def checkpoint(self) -> None:
        """Write the spend to the ledger and empty its journal (no-op without a ledger).

        The order keeps the count on disk at every instant: the journal is emptied only
        once the ledger holds what it said (a kill in between leaves both, which
        :func:`read_spend` reads as the larger, never the smaller).
        """
        with self._lock:
            if self.ledger is None:
                return
            write_spend(self.ledger, self._spent)
            os.ftruncate(self._journal_fd(self.ledger), 0)

    def close(self) -> None:
        if self._journal is not None:
            os.close(self._journal[1])
            self._journal = None

    def describe(self) -> str:
        """``run 12/100 calls 3.4k tok``: the run directory's spend against its budget, for
        the progress bar (beside it, ``sent N`` counts this invocation's requests)."""
        s = self.spent
        calls = f"{s.calls}/{self.max_calls}" if self.max_calls is not None else f"{s.calls}"
        tokens = _short(s.tokens) + (f"/{_short(self.max_tokens)}"
                                     if self.max_tokens is not None else "")
        cost = f" ${s.cost_usd:.2f}" if s.cost_usd else ""
        return f"run {calls} calls {tokens} tok{cost}"


def journal_of(ledger: Path) -> Path:
    return ledger.with_name(f"{ledger.name}.journal")


def read_spend(path: Path) -> Spend:
    """The spend recorded in ``path`` and its journal (none yet when there is neither).

    Both hold cumulative counts, so the spend is their field-wise maximum; a journal line
    cut short by a kill is the change whose call was never sent, and is skipped.
    """
    spent = _parse(path, path.read_text()) if path.is_file() else Spend()
    journal = journal_of(path)
    lines = journal.read_text().splitlines() if journal.is_file() else []
    for number, line in enumerate(lines, 1):
        try:
            entry = Spend.model_validate_json(line)
        except ValidationError:
            if number == len(lines):
                break  # the torn last write of a killed run
            raise UsageError(f"{journal}:{number}: not a spend record; it counts the calls "
                             "this run directory has made, so it is not reset: restore or "
                             "remove it knowingly") from None
        spent = Spend(calls=max(spent.calls, entry.calls),
                      input_tokens=max(spent.input_tokens, entry.input_tokens),
                      output_tokens=max(spent.output_tokens, entry.output_tokens),
                      cost_usd=max(spent.cost_usd, entry.cost_usd))
    return spent


def _parse(path: Path, text: str) -> Spend:
    try:
        return Spend.model_validate_json(text)
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
