"""The hierarchical bootstrap: known answers, seeded, and honest about correlated variants."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.stats import hierarchical_bootstrap, percentile_interval


def _design(models: int, units: int, variants: int) -> tuple[np.ndarray, np.ndarray]:
    model = np.repeat(np.arange(models), units * variants)
    cluster = np.repeat(np.arange(models * units), variants)
    return model, cluster


def test_a_constant_effect_gives_a_zero_width_interval() -> None:
    model, cluster = _design(9, 80, 3)
    draws = hierarchical_bootstrap(np.ones(model.size), model, cluster, replicates=500)
    assert percentile_interval(draws) == (1.0, 1.0)


def test_exact_zero_effects_stay_exactly_zero() -> None:
    model, cluster = _design(9, 80, 3)
    draws = hierarchical_bootstrap(np.zeros(model.size), model, cluster, replicates=500)
    low, high = percentile_interval(draws)
    assert (low, high) == (0.0, 0.0)
    assert str(low) == "0.0" and str(high) == "0.0"  # never -0.0


def test_the_same_seed_gives_the_same_replicates_and_another_seed_does_not() -> None:
    rng = np.random.default_rng(3)
    model, cluster = _design(3, 20, 3)
    values = rng.integers(-1, 2, size=model.size)
    first = hierarchical_bootstrap(values, model, cluster, replicates=300, seed=7)
    again = hierarchical_bootstrap(values, model, cluster, replicates=300, seed=7)
    other = hierarchical_bootstrap(values, model, cluster, replicates=300, seed=8)
    assert np.array_equal(first, again)
    assert not np.array_equal(first, other)


def test_a_simulated_effect_is_covered_about_95_percent_of_the_time() -> None:
    """400 simulated data sets of one model unit x 80 policy units x 3 correlated variants
    (true mean 0.3), each with a 400-replicate interval: ~95 % should cover the truth."""
    rng = np.random.default_rng(20260101)
    model, cluster = _design(1, 80, 3)
    covered = 0
    for draw in range(400):
        unit_effect = np.repeat(0.3 * rng.standard_normal(80), 3)
        values = 0.3 + unit_effect + 0.3 * rng.standard_normal(240)
        low, high = percentile_interval(
            hierarchical_bootstrap(values, model, cluster, replicates=400, seed=draw))
        covered += low <= 0.3 <= high
    assert 0.90 <= covered / 400 <= 0.98


def test_clustering_correlated_variants_widens_the_interval() -> None:
    rng = np.random.default_rng(5)
    model, cluster = _design(1, 80, 3)
    values = np.repeat(rng.integers(0, 2, size=80), 3)  # variants of a unit agree
    clustered = percentile_interval(hierarchical_bootstrap(values, model, cluster))
    per_row = percentile_interval(hierarchical_bootstrap(values, model, np.arange(240)))
    assert clustered[1] - clustered[0] > 1.4 * (per_row[1] - per_row[0])


def test_model_units_that_differ_widen_the_interval() -> None:
    model, cluster = _design(6, 40, 3)
    rng = np.random.default_rng(11)
    values = (rng.random(model.size) < np.repeat(np.linspace(0.1, 0.9, 6), 120)).astype(float)
    by_model = percentile_interval(hierarchical_bootstrap(values, model, cluster))
    one_unit = percentile_interval(hierarchical_bootstrap(values, np.zeros(model.size),
                                                          cluster))
    assert by_model[1] - by_model[0] > 2 * (one_unit[1] - one_unit[0])


def test_ragged_designs_resample_each_unit_from_its_own_clusters() -> None:
    # unit 0 has 2 clusters of value 0, unit 1 has 5 clusters of value 1: with one model
    # drawn per replicate... two are drawn, so every mean is 0, 1 or a 2:5 mix.
    model = np.array([0] * 2 + [1] * 5)
    cluster = np.arange(7)
    values = np.array([0.0] * 2 + [1.0] * 5)
    draws = hierarchical_bootstrap(values, model, cluster, replicates=2000)
    assert set(np.round(draws, 12)) == {0.0, 1.0, round(5 / 7, 12)}


def test_a_cluster_spanning_two_model_units_is_refused() -> None:
    with pytest.raises(ValueError, match="more than one model unit"):
        hierarchical_bootstrap([1.0, 0.0], [0, 1], [0, 0])


def test_an_empty_sample_is_refused() -> None:
    with pytest.raises(ValueError, match="empty"):
        hierarchical_bootstrap([], [], [])
