"""``--rpm`` as LangChain's rate limiter: one token bucket per model, shared by its calls.

:func:`rpm_limiter` maps a requests-per-minute figure onto
:class:`langchain_core.rate_limiters.InMemoryRateLimiter`; the live services keep one per
model and hand it to the model's chat client (``rate_limiter=``), which acquires it before
every request it sends. Nothing of our own limiter remains: the library's covers what the
run needs.

- Even spacing, no bursts: the bucket holds at most one request (``max_bucket_size=1``), so
  requests are at least ``60 / rpm`` seconds apart and idle time is not banked as a burst.
  The bucket starts empty, so a model's first request also waits one interval.
- Cache hits and replays cost nothing: they are answered before the chat client is called,
  so they never take a token. Retries and the ``json_object`` fallback are requests, so
  each takes one.
- Waiters poll the bucket every ``check_every_n_seconds``: a tenth of the interval, between
  5 ms and 100 ms. A grant can therefore come up to one poll late, which keeps the achieved
  rate a little under ``rpm`` (90-99 % of it when measured), never over; 64 waiters polling
  cost ~3 % of a core.
- Waiters are not served in arrival order (whichever polls first after a refill goes
  next). A matrix run waits for all its records, so only the rate matters, not the order.
"""

from __future__ import annotations

from langchain_core.rate_limiters import InMemoryRateLimiter


def rpm_limiter(rpm: float) -> InMemoryRateLimiter:
    """A limiter allowing ``rpm`` requests per minute, evenly spaced."""
    if rpm <= 0:
        raise ValueError("rpm must be positive")
    interval = 60.0 / rpm
    return InMemoryRateLimiter(requests_per_second=rpm / 60.0, max_bucket_size=1,
                               check_every_n_seconds=min(0.1, max(0.005, interval / 10)))
