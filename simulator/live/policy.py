"""The retry policy of a model call: a small value object with good defaults (the paper's).

Three total attempts with a 2 s linear backoff: after the n-th failed attempt wait
``backoff_s * n`` (2 s, then 4 s), or longer when the server sent ``Retry-After``, never
longer than ``max_wait_s``. Only retryable errors (see :mod:`simulator.live.classify`) are
retried; provider SDK retries are switched off (``max_retries=0``) so this is the only loop.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    Retrying,
    retry_if_exception,
    stop_after_attempt,
)

T = TypeVar("T")


class RetryPolicy(BaseModel):
    """How often and how patiently one model call is attempted."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    attempts: int = Field(default=3, ge=1)
    """Total attempts, the first included."""
    backoff_s: float = Field(default=2.0, ge=0)
    """Linear backoff step: wait ``backoff_s * n`` after the n-th failed attempt."""
    max_wait_s: float = Field(default=60.0, ge=0)
    """Cap on one wait, a server's ``Retry-After`` included."""

    def should_retry(self, error: BaseException) -> bool:
        from simulator.live.classify import is_retryable

        return is_retryable(error)

    def wait_after(self, attempt: int, error: BaseException) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (1-based)."""
        from simulator.live.classify import retry_after

        linear = self.backoff_s * attempt
        asked = retry_after(error)
        return min(max(linear, asked or 0.0), self.max_wait_s)

    def _wait(self, state: RetryCallState) -> float:  # tenacity's wait hook
        error = state.outcome.exception() if state.outcome is not None else None
        return self.wait_after(state.attempt_number, error) if error else 0.0


def call_with_retries(attempt: Callable[[], T], policy: RetryPolicy, *,
                      sleep: Callable[[float], None]) -> T:
    """Run ``attempt`` under ``policy``; re-raise the last error when attempts run out.

    Non-retryable errors (a spent budget included) propagate at once. ``sleep`` is
    injected so tests can assert the exact backoff.
    """
    return Retrying(stop=stop_after_attempt(policy.attempts), wait=policy._wait,
                    retry=retry_if_exception(policy.should_retry), sleep=sleep,
                    reraise=True)(attempt)


async def acall_with_retries(attempt: Callable[[], Awaitable[T]], policy: RetryPolicy, *,
                             sleep: Callable[[float], Awaitable[None]]) -> T:
    """:func:`call_with_retries` for coroutines: the same policy, awaited waits."""

    async def once() -> T:  # tenacity awaits only functions it sees as coroutine functions
        return await attempt()

    retrying = AsyncRetrying(stop=stop_after_attempt(policy.attempts), wait=policy._wait,
                             retry=retry_if_exception(policy.should_retry), sleep=sleep,
                             reraise=True)
    return await retrying(once)
