"""A scenario may schedule its own faults in a conversation (``Scenario.turns``, data like
the rest of it); the others follow the run's ``--fault-turns``."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from middleware import Scenario, add_scenario, compose
from middleware.scenarios import scenarios
from simulator.conversations.run import run_cases
from simulator.runner.identity import scenario_definition
from simulator.runner.store import RunStore
from tests.conversations.conftest import cases_config

LATE = "late_leak_from_3"


@pytest.fixture(scope="module")
def late_leak() -> str:
    """A plugin's scenario: another session's state leaks from turn 3 on."""
    if LATE not in scenarios:
        add_scenario(compose(LATE, "wrong_session", layer="session", answerable=False,
                             turns="from:3"))
    return LATE


def test_a_scenario_s_own_turns_win_over_the_run_s(late_leak: str, tmp_path: Path) -> None:
    run_cases(cases_config(tasks=6, scenarios=("clean", "wrong_session", late_leak),
                           arms=("uncontrolled",), modes=("strict",)), tmp_path / "run")
    with RunStore(tmp_path / "run", create=False) as store:
        turns = [r for r in store.records() if r.case is not None]
    acted = {s: sorted({r.case.turn for r in turns if r.scenario == s and r.case
                        and r.case.fault_active}) for s in ("clean", "wrong_session", late_leak)}
    assert acted["wrong_session"] == [2]  # the run's at:2
    assert acted[late_leak] == [3, 4]  # its own from:3 (the first 6 cases have 3-4 turns)
    assert acted["clean"] == [2]  # clean is scheduled too, with no fault to act
    leaked = [r for r in turns if r.scenario == late_leak and r.case and r.case.turn >= 3]
    assert any(r.case and r.case.memory in ("foreign", "mixed") for r in leaked)
    early = [r for r in turns if r.scenario == late_leak and r.case and r.case.turn < 3]
    assert early and all(r.case and r.case.memory == "own" for r in early)


def test_the_schedule_is_part_of_the_scenario_s_definition(late_leak: str) -> None:
    assert scenario_definition(late_leak)["turns"] == "from:3"
    assert "turns" not in scenario_definition("wrong_session")  # as before: the run's


@pytest.mark.parametrize("turns", ["at:0", "from:x", "turn:2", "sometimes"])
def test_a_bad_schedule_is_refused_when_the_scenario_is_made(turns: str) -> None:
    with pytest.raises(ValidationError, match="turns"):
        Scenario(name="bad", layer="session", answerable=False, description="x", turns=turns)
