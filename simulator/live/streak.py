"""Stop a live run that a server refuses the same way on every call.

A misconfigured server (a chat format that rejects ``tool_choice``, a model name the proxy
maps to nothing, a context window smaller than every prompt) answers each record with the
same error. Retrying each record and recording every one as a provider error spends the
whole matrix to learn one fact; exit 4's advice ("re-run to retry them") cannot help.

So the run counts the final failures (after every retry) that arrive in a row with the same
description (exception type, HTTP status and the server's own first line: simulator/live/
classify.py ``describe``); a record that ends without a provider error resets the count.
Records, not calls: an agent whose first turn passes and whose second is refused (a context
too small for a tool result) succeeds once per record and fails once per record, and that
is the same misconfiguration. At
:data:`REPEATED_FAILURES` the run stops with :class:`~simulator.live.errors.
ProviderRefusing` (exit :data:`simulator.runner.live.EXIT_PROVIDER_REFUSING`), naming the
error once. What it wrote stays: re-running the same command after fixing the server
resumes, and retries the records that failed.
"""

from __future__ import annotations

import threading

REPEATED_FAILURES = 5
"""Identical final failures in a row that stop the run. Five, not two: a server restarting
or one overloaded minute can fail a few records alike and then recover."""


class FailureStreak:
    """The run's count of identical final provider failures in a row (thread-safe)."""

    def __init__(self, threshold: int = REPEATED_FAILURES) -> None:
        self.threshold = threshold
        self._lock = threading.Lock()
        self._last: str | None = None
        self._count = 0

    def succeeded(self) -> None:
        with self._lock:
            self._last, self._count = None, 0

    def failed(self, description: str) -> bool:
        """Count a final failure; True when it completes a streak of ``threshold``."""
        with self._lock:
            if description == self._last:
                self._count += 1
            else:
                self._last, self._count = description, 1
            return self._count >= self.threshold
