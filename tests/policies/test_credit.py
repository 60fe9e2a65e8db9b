"""Layer credit verdicts on constructed records: credited, no effect, harmful, unspecific."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from simulator.errors import UsageError
from simulator.evaluation import layer_credit
from simulator.evaluation.render import credit_markdown
from simulator.vocabulary import SCENARIO_NAMES

TASKS = 30  # ten policy units x three variants


@dataclass(frozen=True)
class Row:
    arm: str
    scenario: str
    task_row: int
    S: bool
    safe_resolution: bool
    provider: str = "local"
    model: str = "deterministic"
    contract_mode: str = "strict"

    @property
    def unit(self) -> int:
        return self.task_row // 3


Outcome = Callable[[str, int], tuple[bool, bool]]
"""(scenario, task row) -> (S, safe_resolution) of one arm."""


def baseline(scenario: str, row: int) -> tuple[bool, bool]:
    """Clean-like scenarios answered, fault scenarios failing unsafely."""
    ok = scenario in ("clean", "conflicting_evidence")
    return ok, ok


def rows(policy_arm: str, with_policy: Outcome) -> list[Row]:
    out = []
    for scenario in SCENARIO_NAMES:
        for row in range(TASKS):
            for arm, outcome in (("uncontrolled", baseline), (policy_arm, with_policy)):
                s, safe = outcome(scenario, row)
                out.append(Row(arm, scenario, row, s, safe))
    return out


def fixes(*targets: str, also: Outcome = baseline) -> Outcome:
    def outcome(scenario: str, row: int) -> tuple[bool, bool]:
        return (False, True) if scenario in targets else also(scenario, row)

    return outcome


def test_a_policy_that_fixes_only_its_layer_is_credited() -> None:
    credit = layer_credit(rows("session_isolation", fixes("wrong_session")),
                          "session_isolation", replicates=200)
    assert credit.verdict == "credited"
    assert credit.target_scenarios == ("wrong_session",) and credit.metric == "safe_resolution"
    assert credit.target.estimate == 1.0 and credit.specificity_margin == 1.0


def test_a_policy_that_helps_every_scenario_is_not_layer_specific() -> None:
    faults = [s for s in SCENARIO_NAMES if not baseline(s, 0)[1]]
    credit = layer_credit(rows("session_isolation", fixes(*faults)), "session_isolation",
                          replicates=200)
    assert credit.verdict == "not_layer_specific"
    assert credit.specificity_margin <= 0


def test_a_policy_that_hurts_clean_is_flagged_harmful() -> None:
    def hurts_clean(scenario: str, row: int) -> tuple[bool, bool]:
        return (False, False) if scenario == "clean" and row % 2 else baseline(scenario, row)

    credit = layer_credit(rows("session_isolation", fixes("wrong_session", also=hurts_clean)),
                          "session_isolation", replicates=200)
    assert credit.verdict == "harmful_off_target" and "clean" in credit.reason


def test_a_harm_in_the_unclaimed_metric_is_still_harmful() -> None:
    def answers_unsafely(scenario: str, row: int) -> tuple[bool, bool]:
        if scenario == "schema_drift":
            return True, True
        return (False, False) if scenario == "missing_tool_output" else baseline(scenario, row)

    def base_safe(scenario: str, row: int) -> tuple[bool, bool]:
        return (False, True) if scenario == "missing_tool_output" else baseline(scenario, row)

    records = rows("schema_repair", answers_unsafely)
    records = [r if r.arm != "uncontrolled" or r.scenario != "missing_tool_output"
               else Row(r.arm, r.scenario, r.task_row, *base_safe(r.scenario, r.task_row))
               for r in records]
    credit = layer_credit(records, "schema_repair", replicates=200)
    assert credit.metric == "S"
    assert credit.verdict == "harmful_off_target" and "safe_resolution" in credit.reason


def test_a_policy_that_changes_nothing_has_no_effect() -> None:
    credit = layer_credit(rows("access_aware_abstention", baseline), "access_aware_abstention",
                          replicates=200)
    assert credit.verdict == "no_effect" and credit.target.estimate == 0


def test_the_target_layers_pool_their_records() -> None:
    """evidence_gate targets three layers (four scenarios); it fixes one of them."""
    credit = layer_credit(rows("evidence_gate", fixes("partial_timeout")), "evidence_gate",
                          replicates=200)
    assert credit.target_scenarios == ("schema_drift", "partial_timeout",
                                       "missing_tool_output", "permission_denied")
    assert credit.target.estimate == 0.25 and credit.verdict == "credited"


def test_the_json_has_the_documented_keys() -> None:
    body = layer_credit(rows("session_isolation", fixes("wrong_session")),
                        "session_isolation", replicates=50).as_json()
    assert {"policy", "target_layers", "target_gain", "interval", "off_target",
            "specificity_margin", "verdict"} <= set(body)
    assert set(body["off_target"]) == set(SCENARIO_NAMES) - {"wrong_session"}
    assert set(body["off_target"]["clean"]) == {"S", "safe_resolution"}


def test_the_json_says_what_each_interval_covers() -> None:
    body = layer_credit(rows("session_isolation", fixes("wrong_session")),
                        "session_isolation", replicates=50).as_json()
    assert (body["bootstrap"], body["model_units"], body["policy_units"]) == ("nested", 1, 10)
    assert body["interval_caveat"] == "task sampling for this model only"
    assert body["off_target"]["clean"]["S"]["model_units"] == 1
    assert body["target"]["wrong_session"]["policy_units"] == 10


def test_the_crossed_bootstrap_is_used_for_every_interval_when_asked() -> None:
    credit = layer_credit(rows("session_isolation", fixes("wrong_session")),
                          "session_isolation", replicates=50, bootstrap="crossed")
    assert credit.target.bootstrap == "crossed"
    assert {c.effect(m).bootstrap for c in credit.scenarios
            for m in ("S", "safe_resolution")} == {"crossed"}
    assert credit.as_json()["bootstrap"] == "crossed"


def test_the_markdown_puts_the_caveat_beside_the_target_interval() -> None:
    text = credit_markdown(layer_credit(rows("session_isolation", fixes("wrong_session")),
                                        "session_isolation", replicates=50))
    assert "(30 pairs; covers task sampling for this model only)" in text
    assert "95 % intervals: nested bootstrap over 1 model unit and 10 policy units" in text


def test_records_without_the_policy_arm_are_a_usage_error() -> None:
    with pytest.raises(UsageError, match="layerrag run --arms uncontrolled,session_isolation"):
        layer_credit(rows("other_arm", baseline), "session_isolation", replicates=50)


def test_an_unknown_policy_is_a_usage_error_with_a_suggestion() -> None:
    with pytest.raises(UsageError, match="Did you mean: session_isolation"):
        layer_credit([], "sesion_isolation")
