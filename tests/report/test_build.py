"""build_report: the numbers of every table, checked on hand-made rows."""

from __future__ import annotations

import pytest

from simulator.report import build_report
from simulator.report.model import ArmReport
from simulator.stats.synthetic import synthetic_rows
from tests.report.report_rows import row, success


def only_arm(rows: list) -> ArmReport:  # type: ignore[type-arg]
    report = build_report(rows, replicates=200)
    assert len(report.arms) == 1
    return report.arms[0]


def test_scenario_mode_cells_count_successes_abstentions_and_safe_resolutions() -> None:
    rows = [success(task_row=0), success(task_row=1),
            row(task_row=2, abstained=True, safe_resolution=True, failure_layer="abstained"),
            row(task_row=3)]
    (cell,) = only_arm(rows).scenario_modes
    assert (cell.records, cell.successes, cell.abstentions, cell.safe_resolutions) == (4, 2, 1, 3)
    assert cell.success_rate == 0.5
    assert cell.abstention_rate == 0.25


def test_a_groundedness_false_positive_is_grounded_and_not_strictly_successful() -> None:
    rows = [success(task_row=0), row(task_row=1, grounded=True, failure_layer="session"),
            row(task_row=2, grounded=False)]
    (cell,) = only_arm(rows).scenario_modes
    assert (cell.grounded, cell.groundedness_false_positives) == (2, 1)
    assert cell.groundedness_false_positive_rate == pytest.approx(1 / 3)


def test_provider_errors_stay_in_the_denominator_and_have_their_own_count() -> None:
    rows = [success(task_row=0),
            row(task_row=1, provider_error=True, failure_layer="provider", prompt_hash=None),
            row(task_row=2, failure_layer="reader")]
    arm = only_arm(rows)
    (cell,) = arm.scenario_modes
    assert (cell.records, cell.provider_errors) == (3, 1)
    assert cell.success_rate == pytest.approx(1 / 3)
    (layers,) = arm.failure_layers
    assert layers.counts["provider"] == 1 and layers.counts["reader"] == 1


def test_failure_layers_are_counted_per_scenario_and_mode() -> None:
    rows = [success(task_row=0), row(task_row=1, failure_layer="reader"),
            row(task_row=0, scenario="stale_index", failure_layer="freshness"),
            row(task_row=1, scenario="stale_index", failure_layer="freshness")]
    arm = only_arm(rows)
    assert arm.failure_layer_names == ["none", "freshness", "reader"]
    assert [(r.scenario, r.counts) for r in arm.failure_layers] == [
        ("clean", {"none": 1, "freshness": 0, "reader": 1}),
        ("stale_index", {"none": 0, "freshness": 2, "reader": 0}),
    ]


def test_prompt_hash_coverage_counts_records_with_and_without_one() -> None:
    rows = [row(task_row=0), row(task_row=1, prompt_hash=None),
            row(task_row=2, prompt_hash=None)]
    coverage = only_arm(rows).prompt_coverage
    assert (coverage.with_hash, coverage.without_hash) == (1, 2)


def test_scenarios_follow_the_papers_order_and_strict_precedes_repair() -> None:
    rows = [row(scenario=s, contract_mode=m)
            for s in ("wrong_session", "clean", "schema_drift") for m in ("repair", "strict")]
    cells = [(c.scenario, c.contract_mode) for c in only_arm(rows).scenario_modes]
    assert cells == [("clean", "strict"), ("clean", "repair"), ("schema_drift", "strict"),
                     ("schema_drift", "repair"), ("wrong_session", "strict"),
                     ("wrong_session", "repair")]


def test_repair_effects_and_the_specificity_margin_of_schema_repair() -> None:
    rows = []
    for t in range(30):
        unit, variant = divmod(t, 3)
        common = dict(task_row=t, unit=unit, variant=variant)
        rows += [row(scenario="schema_drift", contract_mode="strict", V=False,
                     failure_layer="contract", prompt_hash=None, **common),
                 success(scenario="schema_drift", contract_mode="repair", **common),
                 success(scenario="clean", contract_mode="strict", **common),
                 (success if t else row)(scenario="clean", contract_mode="repair", **common)]
    arm = only_arm(rows)
    effects = {e.scenario: e for e in arm.effects}
    assert effects["schema_drift"].effect.estimate == 1.0
    assert effects["clean"].effect.estimate == pytest.approx(-1 / 30)
    assert arm.specificity is not None
    assert arm.specificity.margin == pytest.approx(1 - 1 / 30)
    assert arm.specificity.off_target_scenario == "clean"


def test_an_arm_with_one_contract_mode_has_no_effects() -> None:
    arm = only_arm([row(task_row=t) for t in range(3)])
    assert arm.effects == [] and arm.specificity is None and arm.top_gains == []


def test_each_arm_gets_its_own_tables() -> None:
    rows = [success(arm="controlled"), row(arm="uncontrolled"),
            row(arm="uncontrolled", task_row=1)]
    report = build_report(rows, replicates=100)
    assert [(a.arm, a.records) for a in report.arms] == [("controlled", 1), ("uncontrolled", 2)]


def test_top_gains_are_the_ten_largest_model_scenario_changes() -> None:
    arm = only_arm(synthetic_rows(models=6, tasks=30))
    gains = [g.gain for g in arm.top_gains]
    assert len(gains) == 10
    assert gains == sorted(gains, reverse=True)
    assert {g.scenario for g in arm.top_gains[:6]} == {"schema_drift"}


def test_model_and_provider_averages_pool_every_scenario() -> None:
    rows = [success(provider="openai", model="openai:a", task_row=0),
            row(provider="openai", model="openai:a", task_row=1),
            success(provider="openai", model="openai:b", task_row=0),
            success(provider="google", model="google:c", task_row=0, contract_mode="repair")]
    arm = only_arm(rows)
    assert [(m.model, m.success_rate) for m in arm.model_averages] == [
        ("google:c", 1.0), ("openai:a", 0.5), ("openai:b", 1.0)]
    assert [(p.provider, p.models, p.records, p.success_rate) for p in arm.provider_averages] \
        == [("google", 1, 1, 1.0), ("openai", 2, 3, pytest.approx(2 / 3))]


def test_the_report_does_not_depend_on_row_order() -> None:
    rows = synthetic_rows(models=2, tasks=12)
    assert build_report(rows, replicates=100) == build_report(rows[::-1], replicates=100)


def test_the_model_units_are_counted() -> None:
    assert build_report(synthetic_rows(models=3, tasks=6), replicates=50).model_units == 3


def test_the_bootstrap_kind_changes_only_the_intervals() -> None:
    rows = synthetic_rows(models=3, tasks=12)
    nested = build_report(rows, replicates=100)
    crossed = build_report(rows, replicates=100, bootstrap="crossed")
    assert (nested.provenance.bootstrap, crossed.provenance.bootstrap) == ("nested", "crossed")
    assert nested.arms[0].scenario_modes == crossed.arms[0].scenario_modes
    for a, b in zip(nested.arms[0].effects, crossed.arms[0].effects, strict=True):
        assert a.effect.estimate == b.effect.estimate
        assert (a.effect.bootstrap, b.effect.bootstrap) == ("nested", "crossed")


def test_the_policy_units_are_counted() -> None:
    assert build_report(synthetic_rows(models=3, tasks=12), replicates=20).policy_units == 4
