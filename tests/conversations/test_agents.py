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


def test_react_submits_the_support_fields_and_they_reach_the_scored_reply(
        tmp_path: Path) -> None:
    """The offline driver fills FinalAnswer's steps, identifiers and answer type in a
    conversation (rules 3 and 7 of docs/cases.md), and the case scorer reads them."""
    summary = run_cases(cases_config(agent="react", tasks=6, scenarios=("clean",),
                                     arms=("uncontrolled",), modes=("strict",)),
                        tmp_path / "run")
    assert summary.agent_errors == 0
    with RunStore(tmp_path / "run", create=False) as store:
        turns = [r.case for r in store.records() if r.case is not None and r.case.reply]
    answered = [t for t in turns if t.reply and not t.reply.abstained]
    assert answered and any(t.reply and t.reply.steps for t in answered)
    assert all(t.reply and t.reply.identifiers for t in answered)
    asked = [t for t in turns if t.kind == "underspecified"]
    assert asked and all(t.reply and t.reply.answer_type == "clarify" and t.reply.clarify
                         for t in asked if t.score.safe)
    assert any(t.score.workflow_ok for t in answered)  # steps the workflow matches, in order


def test_a_claimed_clarify_counts_as_a_clarifying_question() -> None:
    from simulator.answers.schema import unknown_answer
    from simulator.conversations.runner import turn_reply
    from simulator.runner.record import RunRecord

    record = RunRecord.model_construct(abstained=True, answer=None, reason="Which server?",
                                       citations=())
    plain = record.model_copy(update={"reason": "Tell me the server name."})
    claimed = unknown_answer("Tell me the server name.").model_copy(
        update={"answer_type": "clarify"})
    assert turn_reply(record, None).clarify  # a question mark asks
    assert not turn_reply(plain, None).clarify  # a statement does not ...
    assert turn_reply(plain, claimed).clarify  # ... unless the agent says it asks
