"""The specificity margin: target gain minus the largest absolute off-target change."""

from __future__ import annotations

import pytest

from simulator.errors import UsageError
from simulator.stats import Effect, specificity, specificity_margin


def e(estimate: float) -> Effect:
    return Effect(estimate=estimate, low=estimate, high=estimate)


PAPER = {  # the paper's Table 5 shape: schema drift +91.3, the worst off-target 0.7 points
    "clean": e(0.002), "stale_index": e(0.0), "schema_drift": e(0.913),
    "partial_timeout": e(-0.006), "missing_tool_output": e(0.0), "permission_denied": e(0.0),
    "wrong_session": e(0.0), "conflicting_evidence": e(0.007), "corrupted_metadata": e(-0.003),
}


def test_the_papers_schema_repair_margin_is_90_6_points() -> None:
    assert specificity_margin(PAPER, {"schema_drift"}) == pytest.approx(0.906)


def test_the_breakdown_names_the_worst_off_target_scenario() -> None:
    parts = specificity(PAPER, ["schema_drift"])
    assert parts.off_target_scenario == "conflicting_evidence"
    assert parts.largest_off_target == pytest.approx(0.007)
    assert parts.target_gain == pytest.approx(0.913)


def test_a_negative_off_target_change_counts_by_its_size() -> None:
    effects = {"schema_drift": e(0.5), "clean": e(-0.2), "stale_index": e(0.1)}
    assert specificity_margin(effects, {"schema_drift"}) == pytest.approx(0.3)


def test_with_several_targets_the_weakest_target_gain_counts() -> None:
    effects = {"partial_timeout": e(0.4), "missing_tool_output": e(0.1), "clean": e(0.05)}
    margin = specificity_margin(effects, {"partial_timeout", "missing_tool_output"})
    assert margin == pytest.approx(0.05)


def test_a_mitigation_that_moves_everything_gets_a_negative_margin() -> None:
    effects = {"schema_drift": e(0.3), "clean": e(0.5)}
    assert specificity_margin(effects, {"schema_drift"}) == pytest.approx(-0.2)


def test_without_off_target_scenarios_the_margin_is_the_gain() -> None:
    assert specificity_margin({"schema_drift": e(0.9)}, {"schema_drift"}) == 0.9


def test_an_unknown_target_gets_a_suggestion() -> None:
    with pytest.raises(UsageError, match="Did you mean: schema_drift"):
        specificity_margin(PAPER, {"schema_drfit"})


def test_no_target_is_an_error() -> None:
    with pytest.raises(UsageError, match="at least one target"):
        specificity_margin(PAPER, set())


def test_when_no_off_target_scenario_moved_none_is_named() -> None:
    parts = specificity({"schema_drift": e(0.9), "clean": e(0.0)}, {"schema_drift"})
    assert (parts.largest_off_target, parts.off_target_scenario) == (0.0, None)
