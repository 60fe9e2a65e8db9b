"""Options of a live run that do not change its records (so they stay out of the run id).

Timeouts, retries, budgets, concurrency, rate limits, the call cache and replay change how
and how fast records are produced and what they cost, never what a successful call answers.
Settings that do change answers (output tokens, temperature, structured-output method) are
generation settings and live in ``RunConfig.generation``.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from simulator.live.cache import default_cache_path
from simulator.live.policy import RetryPolicy

Price = tuple[float, float]
"""USD per million input tokens, USD per million output tokens."""


class LiveOptions(BaseModel):
    """How a live run calls its providers. Defaults are the paper's settings."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    concurrency: int = Field(default=8, ge=1, le=512)
    """Records in flight at once."""
    rpm: float | None = Field(default=None, gt=0)
    """Requests per minute, per model; None: no limit."""
    max_calls: int | None = Field(default=None, ge=0)
    """Requests this run directory may send in total (retries included); None: no limit."""
    max_tokens: int | None = Field(default=None, ge=0)
    """Input plus output tokens this run directory may spend in total; None: no limit."""
    timeout_s: float = Field(default=180.0, gt=0)
    """Per-request timeout."""
    retry: RetryPolicy = RetryPolicy()
    cache: Path | None = Field(default_factory=default_cache_path)
    """The shared call cache; None switches recording and cache lookups off."""
    replay: bool = False
    """Answer from the cache only; a miss stops the run naming the record."""
    keep_provider_errors: bool = False
    """On resume, keep records stored as provider errors instead of retrying them."""
    prices: dict[str, Price] = Field(default_factory=dict)
    """Model string -> price, for ``cost_usd``; models without a price record no cost."""


def is_live(models: tuple[str, ...]) -> bool:
    """True when any model calls a provider (anything but the deterministic reader)."""
    return any(m != "deterministic" for m in models)
