"""Tool-calling agents in conversations: react and a published agent written in its own
shape get the thread's exchanges as messages, and a leaked memory hurts their later turns
as it does the pipeline's."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.conversations.run import run_cases
from simulator.report.cases import cases_report_from_store
from simulator.runner.store import RunStore
from tests.conversations.conftest import cases_config


@pytest.mark.slow
@pytest.mark.parametrize("agent", ["react", "examples.published.rag_agent:build_agent"])
def test_a_tool_calling_agent_converses_and_session_isolation_restores_its_later_turns(
        tmp_path: Path, agent: str) -> None:
    config = cases_config(agent=agent, scenarios=("clean", "wrong_session"),
                          modes=("strict",))
    summary = run_cases(config, tmp_path / "run")
    assert summary.written == summary.total and summary.agent_errors == 0
    with RunStore(tmp_path / "run", create=False) as store:
        records = [r for r in store.records() if r.case is not None]
    later = [r for r in records if r.case and r.case.turn >= 2 and r.scenario == "clean"]
    assert all(len(r.case.history) == r.case.turn - 1 for r in later if r.case)
    report = cases_report_from_store(tmp_path / "run", replicates=50)
    after = {(t.arm, t.scenario): t for t in report.after_fault}
    leaked = after[("uncontrolled", "wrong_session")]
    assert leaked.identifier_exact.value is not None
    assert leaked.clean_identifier_exact.value is not None
    assert leaked.identifier_exact.value < leaked.clean_identifier_exact.value
    isolated = after[("session_isolation", "wrong_session")]
    assert isolated.identifier_exact == isolated.clean_identifier_exact
    clean = next(c for c in report.cases if (c.arm, c.scenario) == ("uncontrolled", "clean"))
    assert clean.resolved.k > 0
