"""The three published agents (examples/published), each in its authors' shape with at
most three lines changed, are faulted, recorded and scored like ``react`` offline on every
scenario (issue 26, point 7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.runner.record import RunRecord
from simulator.testing import evaluate
from simulator.vocabulary import SCENARIO_NAMES as SCENARIOS

PUBLISHED = ("rag_agent", "agentic_rag", "quickstart_react")
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "published"


def _run(agent: str) -> list[RunRecord]:
    return list(evaluate(agent, scenarios=SCENARIOS, modes=("strict", "repair"),
                         tasks=24).records)


@pytest.fixture(scope="module")
def react() -> list[RunRecord]:
    return _run("react")


def _s(records: list[RunRecord], scenario: str, mode: str = "strict") -> float:
    rows = [r for r in records if r.scenario == scenario and r.contract_mode == mode]
    assert len(rows) == 24, (scenario, mode)
    return sum(r.S for r in rows) / len(rows)


@pytest.mark.parametrize("name", PUBLISHED)
def test_a_published_agent_is_scored_with_its_faults_firing(name: str,
                                                            react: list[RunRecord]) -> None:
    records = _run(f"examples.published.{name}:build_agent")
    assert len(records) == 9 * 2 * 24
    assert not [r for r in records if r.agent_error or r.reader_error]
    assert all(r.trace["tool_calls"] for r in records)  # every record carries its search
    for mode in ("strict", "repair"):
        assert _s(records, "stale_index", mode) == 0.0
        assert _s(records, "permission_denied", mode) == 0.0
        assert abs(_s(records, "clean", mode) - _s(react, "clean", mode)) <= 0.05
    assert _s(records, "schema_drift", "strict") == 0.0
    assert _s(records, "schema_drift", "repair") == _s(records, "clean", "repair")


@pytest.mark.parametrize("name", PUBLISHED)
def test_at_most_three_lines_differ_from_the_published_shape(name: str) -> None:
    code = (EXAMPLES / f"{name}.py").read_text().split('"""', 2)[2]  # past the docstring
    marked = [line for line in code.splitlines() if "# layerrag:" in line]
    assert 1 <= len(marked) <= 3, marked
