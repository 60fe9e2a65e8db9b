"""paired_difference: pairs by key, never by position, and says how many pairs it used."""

from __future__ import annotations

from typing import Any

import pytest

from simulator.archive.row import ArchiveRow
from simulator.errors import UsageError
from simulator.stats import PAIR_ON_ARM, paired_difference


def row(**overrides: Any) -> ArchiveRow:
    base: dict[str, Any] = dict(
        run_id="r", provider="local", model="deterministic", scenario="schema_drift",
        contract_mode="strict", arm="baseline", task_row=0, unit=0, variant=0,
        domain="returns", E=False, R=False, G=False, V=False, S=False, abstained=False,
        grounded=False, safe_resolution=False, provider_error=False, failure_layer=None,
        prompt_hash=None)
    base.update(overrides)
    return ArchiveRow(**base)


def tasks(n: int, **overrides: Any) -> list[ArchiveRow]:
    return [row(task_row=t, unit=t // 3, variant=t % 3, **overrides) for t in range(n)]


def test_repair_minus_strict_is_the_mean_paired_difference() -> None:
    strict = tasks(30, S=False)
    repair = [row(task_row=t, unit=t // 3, variant=t % 3, contract_mode="repair", S=t < 27)
              for t in range(30)]
    effect = paired_difference(repair, strict, replicates=200)
    assert effect.estimate == pytest.approx(0.9)
    assert effect.low <= 0.9 <= effect.high
    assert (effect.pairs, effect.model_units, effect.clusters) == (30, 1, 10)


def test_pairs_are_matched_by_key_not_by_position() -> None:
    strict = tasks(12, S=True)
    repair = tasks(12, contract_mode="repair", S=True)[::-1]
    assert paired_difference(repair, strict, replicates=100).estimate == 0.0


def test_rows_without_a_partner_are_left_out_and_counted() -> None:
    strict = tasks(12)
    repair = tasks(9, contract_mode="repair", S=True)
    effect = paired_difference(repair, strict, replicates=100)
    assert effect.pairs == 9
    assert effect.estimate == 1.0


def test_pairing_on_the_arm_compares_a_policy_with_its_absence() -> None:
    without = tasks(9, arm="uncontrolled", safe_resolution=False)
    with_policy = tasks(9, arm="controlled", safe_resolution=True)
    effect = paired_difference(with_policy, without, pair_on=PAIR_ON_ARM,
                               metric="safe_resolution", replicates=100)
    assert (effect.estimate, effect.low, effect.high) == (1.0, 1.0, 1.0)


def test_two_rows_for_one_pair_key_are_refused() -> None:
    strict = tasks(3) + tasks(3, arm="other")
    with pytest.raises(UsageError, match="pair_on does not identify one row"):
        paired_difference(tasks(3, contract_mode="repair"), strict, pair_on=("task_row",))


def test_an_unknown_metric_gets_a_suggestion() -> None:
    with pytest.raises(UsageError, match="Did you mean: grounded"):
        paired_difference(tasks(3), tasks(3), metric="groundd")


def test_an_unknown_pair_field_gets_a_suggestion() -> None:
    with pytest.raises(UsageError, match="Did you mean: task_row"):
        paired_difference(tasks(3), tasks(3), pair_on=("task_rows",))


def test_no_pairs_at_all_is_an_error() -> None:
    with pytest.raises(UsageError, match="no pairs"):
        paired_difference(tasks(3, model="a"), tasks(3, model="b"))
