"""The crossed bootstrap: both levels resampled, cells kept whole, seeded, and opt-in."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from simulator.archive.row import ArchiveRow
from simulator.errors import UsageError
from simulator.stats import hierarchical_bootstrap, paired_difference, percentile_interval
from simulator.stats.crossed import crossed_bootstrap
from tests.stats.test_paired import row


def _crossed(models: int, units: int, variants: int) -> tuple[np.ndarray, np.ndarray]:
    """Every model answers the same ``units`` policy units, ``variants`` rows each."""
    model = np.repeat(np.arange(models), units * variants)
    unit = np.tile(np.repeat(np.arange(units), variants), models)
    return model, unit


def _width(interval: tuple[float, float]) -> float:
    return interval[1] - interval[0]


def test_every_replicate_keeps_every_cell_of_the_drawn_models_and_units() -> None:
    # 2 models x 2 units, one row per cell: a replicate draws model counts (2,0), (1,1) or
    # (0,2) and unit counts likewise, and weighs cell (m, u) by their product.
    model, unit = _crossed(2, 2, 1)
    cell = np.array([1.0, 10.0, 100.0, 1000.0])
    counts = [(2, 0), (1, 1), (0, 2)]
    possible = {round(float(np.array(c) @ cell.reshape(2, 2) @ np.array(d)) / 4, 9)
                for c, d in itertools.product(counts, counts)}
    draws = crossed_bootstrap(cell, model, unit, replicates=4000)
    assert set(np.round(draws, 9)) == possible
    assert len(possible) == 9


def test_both_levels_are_resampled() -> None:
    model, unit = _crossed(6, 40, 3)
    by_model = np.repeat(np.linspace(0.0, 1.0, 6), 120)  # differs by model only
    by_unit = np.tile(np.repeat(np.linspace(0.0, 1.0, 40), 3), 6)  # by policy unit only
    assert _width(percentile_interval(crossed_bootstrap(by_model, model, unit))) > 0.3
    assert _width(percentile_interval(crossed_bootstrap(by_unit, model, unit))) > 0.1


def test_variance_shared_through_common_units_is_counted_where_nested_misses_it() -> None:
    """A unit effect every model shares: the nested bootstrap redraws units per model and
    averages the shared effect away; the crossed one keeps it, ~sqrt(9) = 3x wider."""
    model, unit = _crossed(9, 80, 3)
    rng = np.random.default_rng(4)
    values = np.tile(np.repeat(rng.normal(size=80), 3), 9)
    crossed = _width(percentile_interval(crossed_bootstrap(values, model, unit)))
    nested = _width(percentile_interval(
        hierarchical_bootstrap(values, model, model * 80 + unit)))
    assert 2.5 < crossed / nested < 3.5


def test_with_one_model_unit_it_resamples_policy_units_only() -> None:
    # one model, two policy units of three rows: 0s and 1s. Drawing two units gives a mean
    # of 0, 1/2 or 1 with probabilities 1/4, 1/2, 1/4.
    model, unit = _crossed(1, 2, 3)
    values = np.repeat([0.0, 1.0], 3)
    draws = crossed_bootstrap(values, model, unit, replicates=8000, seed=1)
    share = {v: np.mean(draws == v) for v in (0.0, 0.5, 1.0)}
    assert sum(share.values()) == 1.0
    assert share[0.5] == pytest.approx(0.5, abs=0.03)
    assert share[0.0] == pytest.approx(0.25, abs=0.03)


def test_with_one_model_unit_it_agrees_with_the_nested_bootstrap() -> None:
    model, unit = _crossed(1, 80, 3)
    rng = np.random.default_rng(9)
    values = np.repeat(rng.integers(0, 2, size=80), 3).astype(float)
    crossed = crossed_bootstrap(values, model, unit, replicates=4000)
    nested = hierarchical_bootstrap(values, model, unit, replicates=4000)
    assert crossed.std() == pytest.approx(nested.std(), rel=0.08)


def test_the_same_seed_gives_the_same_replicates_and_another_seed_does_not() -> None:
    model, unit = _crossed(3, 20, 3)
    values = np.random.default_rng(3).integers(-1, 2, size=model.size)
    first = crossed_bootstrap(values, model, unit, replicates=300, seed=7)
    again = crossed_bootstrap(values, model, unit, replicates=300, seed=7)
    other = crossed_bootstrap(values, model, unit, replicates=300, seed=8)
    assert np.array_equal(first, again)
    assert not np.array_equal(first, other)


def test_it_returns_one_float_mean_per_replicate_even_over_several_blocks() -> None:
    model, unit = _crossed(9, 80, 3)  # ~24,000 replicates fit in one block
    values = np.random.default_rng(2).integers(-1, 2, size=model.size)
    draws = crossed_bootstrap(values, model, unit, replicates=50_001, seed=5)
    assert draws.shape == (50_001,)
    assert draws.dtype == np.float64
    assert np.all((draws >= -1) & (draws <= 1))
    assert np.array_equal(draws, crossed_bootstrap(values, model, unit, replicates=50_001,
                                                   seed=5))


def test_a_constant_effect_gives_a_zero_width_interval_and_zero_is_never_negative() -> None:
    model, unit = _crossed(9, 80, 3)
    ones = crossed_bootstrap(np.ones(model.size), model, unit, replicates=500)
    assert percentile_interval(ones) == (1.0, 1.0)
    low, high = percentile_interval(crossed_bootstrap(np.zeros(model.size), model, unit))
    assert str(low) == "0.0" and str(high) == "0.0"


def test_models_that_answered_different_units_contribute_only_their_own_cells() -> None:
    # model 0 answered units 0-1 (value 0), model 1 answered units 1-2 (value 1): ragged.
    # A replicate drawing model 0 twice and unit 2 three times keeps no row; it is redrawn.
    draws = crossed_bootstrap([0.0, 0.0, 1.0, 1.0], [0, 0, 1, 1], [0, 1, 1, 2],
                              replicates=2000)
    assert np.all(np.isfinite(draws))
    assert np.all((draws >= 0.0) & (draws <= 1.0))
    assert {0.0, 1.0} <= set(draws)


def test_an_empty_sample_is_refused() -> None:
    with pytest.raises(ValueError, match="empty"):
        crossed_bootstrap([], [], [])


def _models(models: int, tasks: int, mode: str, rate: float) -> list[ArchiveRow]:
    rng = np.random.default_rng(len(mode))
    return [row(model=f"m{m}", task_row=t, unit=t // 3, variant=t % 3, contract_mode=mode,
                S=bool(rng.random() < rate))
            for m in range(models) for t in range(tasks)]


def test_paired_difference_reports_a_crossed_interval_and_its_design() -> None:
    strict, repair = _models(3, 30, "strict", 0.2), _models(3, 30, "repair", 0.8)
    effect = paired_difference(repair, strict, replicates=300, bootstrap="crossed")
    assert effect.bootstrap == "crossed"
    assert (effect.pairs, effect.model_units, effect.policy_units, effect.clusters) == (
        90, 3, 10, 30)
    assert effect.low <= effect.estimate <= effect.high


def test_paired_difference_is_nested_by_default_with_unchanged_numbers() -> None:
    """The numbers the nested bootstrap gave before the crossed one existed, to the bit."""
    strict, repair = _models(3, 30, "strict", 0.2), _models(3, 30, "repair", 0.8)
    effect = paired_difference(repair, strict, replicates=300, seed=4)
    assert effect.bootstrap == "nested"
    assert (effect.estimate, effect.low, effect.high) == (
        0.5666666666666667, 0.4497222222222223, 0.6777777777777778)
    assert effect == paired_difference(repair, strict, replicates=300, seed=4,
                                       bootstrap="nested")


def test_an_unknown_bootstrap_kind_gets_a_suggestion() -> None:
    with pytest.raises(UsageError, match="Did you mean: crossed"):
        paired_difference(_models(1, 3, "repair", 1.0), _models(1, 3, "strict", 0.0),
                          bootstrap="crosed")  # type: ignore[arg-type]
