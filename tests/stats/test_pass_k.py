"""tau-bench's pass^k on known values."""

from __future__ import annotations

import pytest

from simulator.stats.pass_k import pass_hat_k


def test_three_trials_two_successes() -> None:
    trials = {"a": [True, False, True]}
    assert pass_hat_k(trials, 1) == pytest.approx(2 / 3)
    assert pass_hat_k(trials, 2) == pytest.approx(1 / 3)
    assert pass_hat_k(trials, 3) == 0.0


def test_the_mean_over_cases() -> None:
    trials = {"a": [True, True, True], "b": [True, False, True], "c": [False, False, False]}
    assert pass_hat_k(trials, 2) == pytest.approx((1 + 1 / 3 + 0) / 3)
    assert pass_hat_k(trials, 3) == pytest.approx(1 / 3)


def test_pass_1_is_the_mean_success_rate() -> None:
    trials = {"a": [True, False, True, True], "b": [False, True], "c": [True]}
    rates = [sum(t) / len(t) for t in trials.values()]
    assert pass_hat_k(trials, 1) == pytest.approx(sum(rates) / len(rates))


def test_pass_k_never_rises_with_k() -> None:
    trials = {"a": [True, False, True, True, False], "b": [True] * 4 + [False]}
    values = [pass_hat_k(trials, k) for k in range(1, 6)]
    assert values == sorted(values, reverse=True) and values[0] > values[-1]


def test_too_few_trials_or_a_bad_k_raise_one_line() -> None:
    with pytest.raises(ValueError, match="task b has 2 trials, fewer than k=3"):
        pass_hat_k({"a": [True] * 3, "b": [True, True]}, 3)
    with pytest.raises(ValueError, match="k must be at least 1"):
        pass_hat_k({"a": [True]}, 0)
    with pytest.raises(ValueError, match="no tasks"):
        pass_hat_k({}, 1)
