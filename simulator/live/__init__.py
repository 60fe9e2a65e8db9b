"""Live model calls: call policy, retries, budget, rate limit, record/replay, the live loop.

The readers in :mod:`simulator.readers.chat` call providers through these services, and
:func:`simulator.runner.live.run_live_matrix` runs a whole matrix with them.

Names are re-exported lazily: importing a light submodule (options, for the CLI) must not
pull in every provider SDK, which costs seconds on each command.
"""

from __future__ import annotations

import importlib
from typing import Any

_HOME = {
    "CallBudget": "budget", "Spend": "budget",
    "CallCache": "cache", "RecordedCall": "cache", "call_key": "cache",
    "default_cache_path": "cache",
    "describe": "classify", "is_fatal": "classify", "is_provider_error": "classify",
    "is_retryable": "classify", "retry_after": "classify",
    "BudgetExhausted": "errors", "CallsAbandoned": "errors", "LiveStop": "errors",
    "ProviderRejected": "errors", "ReplayMiss": "errors",
    "LiveOptions": "options",
    "RetryPolicy": "policy", "acall_with_retries": "policy", "call_with_retries": "policy",
    "rpm_limiter": "ratelimit",
    "LiveServices": "services", "build_services": "services", "current_services": "services",
    "use_services": "services",
}

__all__ = sorted(_HOME)


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module 'simulator.live' has no attribute {name!r}")
    return getattr(importlib.import_module(f"simulator.live.{_HOME[name]}"), name)
