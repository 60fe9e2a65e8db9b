"""examples/own_retriever.py: an agent with its own vector store and retrieval tool, given
none of layerrag's tools, is faulted, recorded and scored on every scenario (issue 26,
point 2): FaultyRetriever puts each layer's fault on what its retriever returns."""

from __future__ import annotations

import pytest

from simulator.runner.record import RunRecord
from simulator.testing import evaluate
from simulator.vocabulary import SCENARIO_NAMES as SCENARIOS

OWN = "examples.own_retriever:build_agent"
NEGATIVE_CONTROLS = ("stale_index", "missing_tool_output", "permission_denied",
                     "wrong_session")


@pytest.fixture(scope="module")
def records() -> list[RunRecord]:
    return list(evaluate(OWN, scenarios=SCENARIOS, modes=("strict", "repair"),
                         tasks=24).records)


def _s(records: list[RunRecord], scenario: str, mode: str) -> float:
    rows = [r for r in records if r.scenario == scenario and r.contract_mode == mode]
    assert len(rows) == 24, (scenario, mode)
    return sum(r.S for r in rows) / len(rows)


def test_every_record_is_searched_through_the_faulted_endpoint(records: list[RunRecord]
                                                               ) -> None:
    assert len(records) == 9 * 2 * 24
    assert not [r for r in records if r.agent_error or r.reader_error]
    assert all(r.trace["tool_calls"] and r.trace["tool_calls"][0]["tool"] == "search_policies"
               for r in records)


def test_the_negative_controls_stay_unresolved_and_repair_fixes_only_schema_drift(
        records: list[RunRecord]) -> None:
    for scenario in NEGATIVE_CONTROLS:
        assert _s(records, scenario, "strict") == _s(records, scenario, "repair") == 0.0
    clean = _s(records, "clean", "strict")
    assert clean >= 0.7
    assert _s(records, "schema_drift", "strict") == 0.0
    assert _s(records, "schema_drift", "repair") == clean


def test_a_denied_search_makes_it_abstain_in_prose(records: list[RunRecord]) -> None:
    denied = [r for r in records if r.scenario == "permission_denied"]
    assert all(r.abstained and r.safe_resolution for r in denied)
