"""Scenario order and target layers: the axes of every table."""

from __future__ import annotations

from simulator.stats import ordered_modes, ordered_scenarios, scenarios_targeting, target_layer
from simulator.vocabulary import SCENARIO_NAMES


def test_scenarios_follow_the_papers_order_then_unknown_ones_alphabetically() -> None:
    names = ["zeta_fault", "wrong_session", "clean", "alpha_fault", "stale_index"]
    assert ordered_scenarios(names) == ["clean", "stale_index", "wrong_session",
                                        "alpha_fault", "zeta_fault"]


def test_strict_comes_before_repair_and_other_modes_after() -> None:
    assert ordered_modes(["repair", "lenient", "strict", "repair"]) == [
        "strict", "repair", "lenient"]


def test_every_paper_scenario_has_a_target_layer() -> None:
    assert all(target_layer(name) != "unknown" for name in SCENARIO_NAMES)
    assert target_layer("schema_drift") == "contract"


def test_the_completeness_layer_has_two_target_scenarios() -> None:
    assert scenarios_targeting("completeness") == {"partial_timeout", "missing_tool_output"}
