"""Why a live run stops early: each is a clean, resumable stop, never a crash.

All are :class:`~simulator.errors.LayerragError` subclasses, so the CLI prints one line. The
messages never contain provider response text: a provider may echo part of an API key
(``Incorrect API key provided: sk-ab***yz``), and nothing of a key may reach a log or a store.
"""

from __future__ import annotations

from simulator.errors import LayerragError


class LiveStop(LayerragError):
    """A live run stopped before the matrix was complete; re-running resumes it."""


class BudgetExhausted(LiveStop):
    """The explicit call or token budget is spent. Raise the budget and re-run to resume."""


class ReplayMiss(LiveStop):
    """``--replay`` met a prompt the call cache has never recorded."""

    def __init__(self, model: str, prompt_hash: str, cache: str, record: str | None = None
                 ) -> None:
        self.model, self.prompt_hash, self.cache, self.record = model, prompt_hash, cache, record
        what = f"record {record}" if record else f"model {model}"
        super().__init__(f"replay: no recorded call for {what} (prompt {prompt_hash}) in "
                         f"{cache}; run without --replay to record it")

    def for_record(self, record: str) -> ReplayMiss:
        """The same miss, naming the record it belongs to (known only to the runner)."""
        return ReplayMiss(self.model, self.prompt_hash, self.cache, record)


class CallsAbandoned(LiveStop):
    """The user asked to abandon in-flight calls (a second Ctrl-C)."""


class ProviderRefusing(LiveStop):
    """The same provider error answered every call of a streak (simulator/live/streak.py):
    the server or its settings refuse the run's requests. Fix them and re-run to resume."""


class ProviderRejected(LayerragError):
    """The provider refused the run itself (bad key, no access, unknown model): stop at once.

    Recording such errors per record would fill a store with thousands of identical
    failures; they are configuration errors, not outcomes.
    """
