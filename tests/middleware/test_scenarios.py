"""The scenario registry: the nine scenarios of the paper's table, and bad names and
parameters failing when a scenario is built, in one line, with a suggestion."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from middleware import (
    SCENARIO_NAMES,
    FaultSpec,
    build_tool_chain,
    compose,
    faults,
    get_scenario,
)
from simulator.errors import UsageError

TABLE = {
    # name: (layer, answerable, mitigation)
    "clean": ("none", True, None),
    "stale_index": ("freshness", False, "freshness_check"),
    "schema_drift": ("contract", True, "schema_repair"),
    "partial_timeout": ("completeness", True, "bounded_retry"),
    "missing_tool_output": ("completeness", False, "evidence_gate"),
    "permission_denied": ("authorization", False, "access_aware_abstention"),
    "wrong_session": ("session", False, "session_isolation"),
    "conflicting_evidence": ("evidence", True, "conflict_disclosure"),
    "corrupted_metadata": ("metadata", True, "metadata_integrity"),
}


def test_the_nine_scenarios_are_registered_in_table_order() -> None:
    assert SCENARIO_NAMES == tuple(TABLE)


@pytest.mark.parametrize("name", list(TABLE))
def test_each_scenario_declares_its_layer_answerability_and_mitigation(name: str) -> None:
    scenario = get_scenario(name)
    assert (scenario.layer, scenario.answerable, scenario.mitigation) == TABLE[name]
    assert scenario.description


@pytest.mark.parametrize("name", [n for n in TABLE if n != "clean"])
def test_each_fault_scenario_is_its_own_fault_on_its_own_layer(name: str) -> None:
    scenario = get_scenario(name)
    assert [f.name for f in scenario.faults] == [name]
    assert faults.get(name).layer == scenario.layer


def test_every_fault_lives_in_its_own_module() -> None:
    for name in faults:
        assert faults.get(name).factory.__module__ == f"middleware.faults.{name}"


def test_an_unknown_scenario_is_one_line_with_a_suggestion() -> None:
    with pytest.raises(UsageError) as err:
        get_scenario("stale_idx")
    message = str(err.value)
    assert "\n" not in message and "Did you mean: stale_index?" in message


def test_an_unknown_fault_fails_when_the_scenario_is_built() -> None:
    scenario = compose("typo", "partial_timout", layer="completeness", answerable=True)
    with pytest.raises(UsageError, match="Did you mean: partial_timeout"):
        build_tool_chain(scenario)


def test_an_unknown_fault_parameter_gets_a_suggestion() -> None:
    spec = FaultSpec(name="partial_timeout", params={"timeout_probabilty": 0.5})
    with pytest.raises(UsageError, match="Did you mean: timeout_probability"):
        spec.build()


@pytest.mark.parametrize(("fault", "params", "needle"), [
    ("partial_timeout", {"timeout_probability": 1.5}, "timeout_probability"),
    ("partial_timeout", {"recovery_probability": -0.1}, "recovery_probability"),
    ("partial_timeout", {"shards": 0}, "shards"),
    ("stale_index", {"versions_behind": 0}, "versions_behind"),
    ("missing_tool_output", {"forms": ("none", "nothing")}, "forms"),
    ("missing_tool_output", {"forms": ()}, "forms"),
    ("corrupted_metadata", {"fields": ("status", "titel")}, "fields"),
    ("conflicting_evidence", {"notes": ("contradicts_everything",)}, "notes"),
    ("permission_denied", {"groups": ("",)}, "groups"),
])
def test_impossible_parameters_fail_when_the_scenario_is_built(fault: str, params: dict,
                                                                needle: str) -> None:
    scenario = compose("bad", FaultSpec(name=fault, params=params), layer="none",
                       answerable=True)
    with pytest.raises(UsageError, match=needle) as err:
        build_tool_chain(scenario)
    assert "\n" not in str(err.value)


def test_the_cli_reports_an_unknown_scenario_in_one_line(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "simulator.cli.main", "run", "--out",
                          str(tmp_path / "run"), "--scenarios", "wrong_sesion"],
                         capture_output=True, text=True, check=False)
    assert out.returncode == 2
    assert out.stderr.count("\n") <= 1 and "Did you mean: wrong_session?" in out.stderr
