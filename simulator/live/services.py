"""The live services one run shares between its readers: policy, budget, limits, cache.

The reader factories registered in :mod:`simulator.readers.chat` are called by
``MatrixRunner`` with the signature every reader has (model, base URL, generation); the
run's budget, cache, retry policy and rate limiters reach them through :func:`use_services`,
a context variable set only while the runner builds its readers. Outside a live run a
reader gets fresh default services: the paper's call policy, no budget, no cache.

Everything async here runs on the one live loop (:mod:`simulator.live.loop`).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import threading
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.rate_limiters import BaseRateLimiter

from simulator.errors import UsageError
from simulator.live.budget import CallBudget, Spend
from simulator.live.cache import CallCache
from simulator.live.options import LiveOptions, Price
from simulator.live.policy import RetryPolicy
from simulator.live.ratelimit import rpm_limiter
from simulator.live.streak import FailureStreak


class LiveStats:
    """Thread-safe event counters for progress and summaries (requests, cache hits, ...)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: Counter[str] = Counter()

    def add(self, name: str, n: int = 1) -> None:
        with self._lock:
            self._counts[name] += n

    def snapshot(self) -> dict[str, int]:
        with self._lock:
            return dict(self._counts)


@dataclass
class _Flight:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


@dataclass
class LiveServices:
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    timeout_s: float = 180.0
    budget: CallBudget = field(default_factory=CallBudget)
    cache: CallCache | None = None
    replay: bool = False
    rpm: float | None = None
    prices: dict[str, Price] = field(default_factory=dict)
    sleep: Callable[[float], None] | None = None
    """Replaces the backoff waits when set: tests record instead of waiting."""
    stats: LiveStats = field(default_factory=LiveStats)
    failures: FailureStreak = field(default_factory=FailureStreak)
    """Identical final provider failures in a row: a streak stops the run."""
    limiters: dict[str, BaseRateLimiter] = field(default_factory=dict)
    """The rate limiter of each model, by reader name; filled from ``rpm`` on first use."""
    structured_output: dict[str, str] = field(default_factory=dict)
    """The structured-output method each model uses in this run, by reader name: fixed by
    the run (recorded in its manifest, found by ``--structured-output auto``'s probe)."""
    tool_call_mode: dict[str, str] = field(default_factory=dict)
    """How each model is asked for tool calls in this run (simulator/agents/tool_modes.py),
    by reader name: fixed by the run's tool-calling preflight, recorded in its manifest."""
    _flights: dict[str, _Flight] = field(default_factory=dict)
    _outcomes: dict[str, Any] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    async def pause(self, seconds: float) -> None:
        """Wait between attempts (cancellable)."""
        if self.sleep is not None:
            self.sleep(seconds)
        elif seconds > 0:
            await asyncio.sleep(seconds)

    async def before_request(self, model: str) -> None:
        """Every request passes here for its budget; the client then waits for the limiter."""
        self.budget.reserve_call()
        self.stats.add("requests")

    def rate_limiter(self, model: str) -> BaseRateLimiter | None:
        """The limiter every request to ``model`` acquires, or None without ``rpm``."""
        with self._lock:
            if model not in self.limiters and self.rpm is not None:
                self.limiters[model] = rpm_limiter(self.rpm)
            return self.limiters.get(model)

    @contextlib.asynccontextmanager
    async def single_flight(self, key: str) -> AsyncIterator[None]:
        """Hold a call key while it is looked up and, on a miss, called and recorded.

        Identical prompts in flight at once (the same evidence in strict and repair mode)
        then cost one call: the second waits and finds the first one's recorded answer.
        """
        flight = self._flights.setdefault(key, _Flight())
        flight.users += 1
        try:
            async with flight.lock:
                yield
        finally:
            flight.users -= 1
            if flight.users == 0:
                del self._flights[key]

    def shared_outcome(self, key: str) -> Any | None:
        """What an identical call already gave in this run (see :meth:`share`), if any."""
        return self._outcomes.get(key)

    def share(self, key: str, outcome: Any) -> None:
        """Make ``outcome`` the answer of every later identical call in this run.

        Records that send the same prompt (strict and repair, when the contract step left
        the evidence alike) must get the same outcome, or a failure on one side only would
        show up as a difference between the modes. Answers are shared through the call
        cache; failures (never cached across runs) and, with the cache off, answers too,
        are shared here, for this run only: a re-run tries them again, pairs together.
        Call inside :meth:`single_flight` for ``key``.
        """
        self._outcomes[key] = outcome

    def cost(self, model: str, input_tokens: int, output_tokens: int) -> float | None:
        price = self.prices.get(model)
        if price is None:
            return None
        return round((input_tokens * price[0] + output_tokens * price[1]) / 1e6, 8)

    def close(self) -> None:
        if self.cache is not None:
            self.cache.close()
        self.budget.close()


def build_services(options: LiveOptions, *, spent: Spend | None = None,
                   sleep: Callable[[float], None] | None = None,
                   spend_ledger: Path | None = None) -> LiveServices:
    """The services of one run. With ``spend_ledger`` (the run directory's spend file) the
    budget records each call there before it is sent (:class:`CallBudget`)."""
    if options.replay and options.cache is None:
        raise UsageError("--replay answers from the call cache: do not switch the cache off")
    return LiveServices(
        retry=options.retry, timeout_s=options.timeout_s,
        budget=CallBudget(max_calls=options.max_calls, max_tokens=options.max_tokens,
                          spent=spent, ledger=spend_ledger),
        cache=CallCache(options.cache) if options.cache is not None else None,
        replay=options.replay, rpm=options.rpm, prices=dict(options.prices), sleep=sleep,
    )


_current: contextvars.ContextVar[LiveServices | None] = contextvars.ContextVar(
    "layerrag_live_services", default=None)


def current_services() -> LiveServices:
    """The services of the live run being set up, or fresh defaults outside one."""
    return _current.get() or LiveServices()


@contextlib.contextmanager
def use_services(services: LiveServices) -> Iterator[LiveServices]:
    token = _current.set(services)
    try:
        yield services
    finally:
        _current.reset(token)
