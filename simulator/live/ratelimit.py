"""A requests-per-minute limiter shared by everything calling one model.

Requests are spaced evenly (``60 / rpm`` seconds apart) rather than allowed to burst:
provider limits are usually enforced over short windows, and even spacing keeps a run of
many concurrent calls under them. :meth:`RateLimiter.reserve` books the next free slot and
says how long to wait for it; the caller waits (asynchronously, in a live run).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class RateLimiter:
    """Evenly spaced slots at ``rpm`` requests per minute."""

    def __init__(self, rpm: float, *, clock: Callable[[], float] = time.monotonic) -> None:
        if rpm <= 0:
            raise ValueError("rpm must be positive")
        self.interval = 60.0 / rpm
        self._clock = clock
        self._lock = threading.Lock()
        self._next: float | None = None

    def reserve(self) -> float:
        """Book the next slot; return the seconds to wait before using it."""
        with self._lock:
            now = self._clock()
            slot = now if self._next is None else max(now, self._next)
            self._next = slot + self.interval
        return slot - now
