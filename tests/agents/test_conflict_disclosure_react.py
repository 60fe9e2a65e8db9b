"""conflict_disclosure reaches a tool-calling agent: its guiding prompt rides in the search
result's notes, and the react agent's labels mirror the pipeline's."""

from __future__ import annotations

from collections import Counter

import pytest

from simulator.runner.config import RunConfig
from simulator.runner.matrix import run_matrix
from simulator.runner.store import RunStore

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def labels(tmp_path_factory: pytest.TempPathFactory) -> Counter[tuple[str, str, str | None]]:
    out = tmp_path_factory.mktemp("react_disclosure")
    config = RunConfig(agent="react", scenarios=("clean", "conflicting_evidence"),
                       modes=("strict",), arms=("uncontrolled", "conflict_disclosure"),
                       tasks=24)
    run_matrix(config, out, progress=False)
    with RunStore(out, create=False) as store:
        return Counter((r.arm, r.scenario, r.behaviour) for r in store.records())


def test_the_react_agent_resolves_and_discloses_conflicts_without_the_policy(
        labels: Counter[tuple[str, str, str | None]]) -> None:
    assert labels[("uncontrolled", "conflicting_evidence", "B3")] > 20
    assert labels[("uncontrolled", "clean", "B5")] == 24


def test_with_the_policy_it_asks_for_clarification_and_raises_false_alarms(
        labels: Counter[tuple[str, str, str | None]]) -> None:
    assert labels[("conflict_disclosure", "conflicting_evidence", "B2")] == 24
    assert labels[("conflict_disclosure", "clean", "B6")] > 12
