"""What an interval covers: one model unit, a few, or enough to speak of models in general."""

from __future__ import annotations

import pytest

from simulator.stats import (
    FEW_MODEL_UNITS,
    Effect,
    interval_caveat,
    interval_design,
)


def test_one_model_unit_covers_task_sampling_for_that_model_only() -> None:
    assert interval_caveat(1) == "task sampling for this model only"


@pytest.mark.parametrize("model_units", [2, 3, 9])
def test_fewer_than_ten_model_units_may_under_cover_across_models(model_units: int) -> None:
    assert interval_caveat(model_units) == "may under-cover across models"


def test_ten_model_units_carry_no_caveat() -> None:
    assert FEW_MODEL_UNITS == 10 and interval_caveat(10) is None


def test_an_intervals_design_names_its_bootstrap_units_and_caveat() -> None:
    effect = Effect(estimate=0.5, low=0.4, high=0.6, pairs=720, model_units=3, clusters=240,
                    policy_units=80, replicates=2000, bootstrap="crossed")
    assert interval_design(effect) == {"bootstrap": "crossed", "model_units": 3,
                                       "policy_units": 80,
                                       "interval_caveat": "may under-cover across models"}
