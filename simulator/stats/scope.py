"""What a paired interval covers, given how many model units its bootstrap saw.

A bootstrap interval is only as general as what it resamples. With one model unit (every
deterministic run, any live run of one model) the model level has one choice, so the
interval covers task sampling for that model and nothing more; read as an interval for
models in general it covers far less than 95 %. With a few model units it covers the
population of models better but still under-covers, because no bootstrap sees more
model-to-model spread than the sampled models show. ``benchmarks/coverage.py`` measured
both (docs/intervals.md has the table); every output that shows an interval says which case
it is in, in these words.
"""

from __future__ import annotations

from typing import Any

from simulator.stats.paired import Effect

FEW_MODEL_UNITS = 10
"""Below this many model units an interval may under-cover across models (at 9 the nested
interval covered the model population 0.86-0.95 of the time in benchmarks/coverage.py)."""

ONE_MODEL_CAVEAT = "task sampling for this model only"
FEW_MODELS_CAVEAT = "may under-cover across models"


def interval_caveat(model_units: int) -> str | None:
    """The caveat an interval over ``model_units`` model units carries; None from ten up."""
    if model_units <= 1:
        return ONE_MODEL_CAVEAT
    if model_units < FEW_MODEL_UNITS:
        return FEW_MODELS_CAVEAT
    return None


def interval_design(effect: Effect) -> dict[str, Any]:
    """An interval's design for JSON: bootstrap kind, model and policy units, caveat."""
    return {"bootstrap": effect.bootstrap, "model_units": effect.model_units,
            "policy_units": effect.policy_units,
            "interval_caveat": interval_caveat(effect.model_units)}
