"""An agent that answers in prose (``create_agent`` with no ``response_format``) is scored by
the task's answer format, and scores like ``react`` (issue 26, point 5)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.messages import AIMessage

from simulator.answers.prose import ABSTAINED_NOTE, PROSE_NOTE
from simulator.errors import UsageError
from simulator.runner.record import RunRecord
from simulator.testing import evaluate

PROSE_AGENT = "examples.prose_agent:build_agent"
SCENARIOS = ("clean", "stale_index", "permission_denied")


@pytest.fixture(scope="module")
def records() -> dict[str, list[RunRecord]]:
    """The prose agent and react on the same 24 tasks, through the matrix runner."""
    return {agent: list(evaluate(agent, scenarios=SCENARIOS, modes=("strict",),
                                 tasks=24).records)
            for agent in (PROSE_AGENT, "react")}


def _rows(records: list[RunRecord], scenario: str) -> list[RunRecord]:
    rows = [r for r in records if r.scenario == scenario]
    assert len(rows) == 24
    return rows


def _s(records: list[RunRecord], scenario: str) -> float:
    rows = _rows(records, scenario)
    return sum(r.S for r in rows) / len(rows)


def test_a_prose_agent_scores_like_react_on_clean(records: dict[str, list[RunRecord]]
                                                  ) -> None:
    prose, react = _s(records[PROSE_AGENT], "clean"), _s(records["react"], "clean")
    assert prose > 0.5
    assert abs(prose - react) <= 0.05
    assert not any(r.reader_error for r in _rows(records[PROSE_AGENT], "clean"))


def test_every_prose_record_was_read_from_prose_and_reacts_from_final_answer(
        records: dict[str, list[RunRecord]]) -> None:
    assert all((r.reason or "").startswith((PROSE_NOTE, ABSTAINED_NOTE))
               for r in records[PROSE_AGENT])
    assert not any((r.reason or "").startswith((PROSE_NOTE, ABSTAINED_NOTE))
                   for r in records["react"])


@pytest.mark.parametrize(("scenario", "layer"), [("stale_index", "freshness"),
                                                  ("permission_denied", "authorization")])
def test_faults_still_fire_under_a_prose_agent(records: dict[str, list[RunRecord]],
                                               scenario: str, layer: str) -> None:
    rows = _rows(records[PROSE_AGENT], scenario)
    assert _s(records[PROSE_AGENT], scenario) == 0.0
    assert all(r.trace["tool_calls"] for r in rows)
    assert Counter(r.failure_layer for r in rows)[layer] > 12
    react = _rows(records["react"], scenario)
    assert Counter(r.failure_layer for r in rows) == Counter(r.failure_layer for r in react)


def test_an_abstention_in_prose_is_a_safe_non_answer_where_nothing_is_answerable(
        records: dict[str, list[RunRecord]]) -> None:
    rows = _rows(records[PROSE_AGENT], "permission_denied")
    assert all(r.abstained and not r.reader_error for r in rows)
    react = _rows(records["react"], "permission_denied")
    assert sum(r.safe_resolution for r in rows) == sum(r.safe_resolution for r in react) > 0


def _ends_with(text: str) -> Any:
    """A create_agent agent that searches once, then says ``text``."""
    from simulator.agents.tool_model import DeterministicToolCallingModel

    class Says(DeterministicToolCallingModel):
        def _next(self, messages: list[Any], tools: Any, tool_choice: Any = None) -> AIMessage:
            if not any(m.type == "tool" for m in messages):
                return self._call(messages, "search_policies", {"query": "return window"})
            return AIMessage(text)

    def factory(model: Any, tools: Sequence[Any], middleware: Sequence[Any]) -> Any:
        return create_agent(Says(), tools=list(tools), middleware=list(middleware))

    return factory


def test_prose_with_no_value_of_the_format_is_refused_at_the_probe() -> None:
    with pytest.raises(UsageError, match="prose states no duration value and no abstention"):
        evaluate(_ends_with("Please see the returns policy [doc_x]."), scenarios=["clean"],
                 modes=["strict"], tasks=2)


def test_a_sentence_is_scored_by_its_value() -> None:
    records = evaluate(_ends_with("For a regular purchase you have 30 days to return it "
                                  "[doc_x]."), scenarios=["clean"], modes=["strict"],
                       tasks=1).records
    assert [r.answer for r in records] == ["30 days"]
    assert [r.citations for r in records] == [("doc_x",)]
