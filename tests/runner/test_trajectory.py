"""Each record's trajectory: stored beside it, in the declared shape, and telling the truth.

The runner builds trajectories as plain dicts (simulator/runner/trajectory/build.py); these
tests hold every stored one to the :class:`Trajectory` model, for the pipeline and for a
tool-calling agent, under every scenario and both arms, and check that what a trajectory
says agrees with the record it explains.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.runner.config import RunConfig
from simulator.runner.matrix import run_matrix
from simulator.runner.record import RunRecord
from simulator.runner.store import RunStore
from simulator.runner.trajectory import Trajectory


def _stored(run_dir: Path) -> list[tuple[RunRecord, Trajectory]]:
    with RunStore(run_dir, create=False) as store:
        records = list(store.records())
        paths = store.all_trajectories()
    assert len(paths) == len(records)
    return [(r, Trajectory.model_validate(json.loads(paths[r.key.as_str()])))
            for r in records]


@pytest.fixture(scope="module")
def pipeline_run(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[RunRecord, Trajectory]]:
    out = tmp_path_factory.mktemp("pipeline")
    run_matrix(RunConfig(tasks=6, arms=("uncontrolled", "controlled")), out, progress=False)
    return _stored(out)


@pytest.fixture(scope="module")
def react_run(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[RunRecord, Trajectory]]:
    out = tmp_path_factory.mktemp("react")
    run_matrix(RunConfig(tasks=4, agent="react"), out, progress=False)
    return _stored(out)


def test_every_record_has_a_trajectory_in_the_declared_shape(
        pipeline_run: list[tuple[RunRecord, Trajectory]],
        react_run: list[tuple[RunRecord, Trajectory]]) -> None:
    assert len(pipeline_run) == 6 * 9 * 2 * 2
    assert len(react_run) == 4 * 9 * 2
    assert {t.agent for _, t in react_run} == {"react"}


@pytest.mark.parametrize("which", ["pipeline_run", "react_run"])
def test_the_verdict_is_the_records_own_scores(which: str,
                                               request: pytest.FixtureRequest) -> None:
    for record, path in request.getfixturevalue(which):
        v = path.verdict
        assert (v.E.ok, v.R.ok, v.G.ok, v.V.ok, v.S.ok) == (
            record.E, record.R, record.G, record.V, record.S)
        assert v.safe_resolution.ok == record.safe_resolution
        assert v.failure_layer == record.failure_layer
        assert path.answer.value == record.answer
        assert tuple(path.answer.citations) == tuple(record.citations)


def test_a_react_trajectory_keeps_the_agents_own_query_and_what_it_saw(
        react_run: list[tuple[RunRecord, Trajectory]]) -> None:
    for record, path in react_run:
        searches = [s for s in path.steps if s.tool == "search_policies"]
        assert searches, record.key
        assert all(isinstance(s.args.get("query"), str) and s.args["query"] for s in searches)
        assert "session" not in searches[0].args  # the caller's own, the same every call
    clean = [p for r, p in react_run if r.scenario == "clean" and r.S]
    assert clean
    for path in clean:  # what the agent cited, it was shown
        shown = {h.doc_id for s in path.steps for h in s.hits}
        assert set(path.answer.citations) <= shown


def _effects(run: list[tuple[RunRecord, Trajectory]], scenario: str) -> list[str]:
    return [f"{e.fault}: {e.effect}" for r, p in run if r.scenario == scenario
            for s in p.steps for e in s.faults]


@pytest.mark.parametrize("which", ["pipeline_run", "react_run"])
def test_each_fault_is_seen_in_the_results_it_changed_and_clean_shows_none(
        which: str, request: pytest.FixtureRequest) -> None:
    run = request.getfixturevalue(which)
    assert _effects(run, "clean") == []
    expected = {
        "stale_index": "stale_index: served the stale index snapshot",
        "schema_drift": "schema_drift: schema drifted",
        "partial_timeout": "partial_timeout: ",
        "missing_tool_output": "missing_tool_output: returned no usable output",
        "permission_denied": "permission_denied: withheld",
        "wrong_session": "wrong_session: answered from another session's state",
        "corrupted_metadata": "corrupted_metadata: ",
        "conflicting_evidence": "conflicting_evidence: attached a notice",
    }
    for scenario, start in expected.items():
        effects = _effects(run, scenario)
        assert any(e.startswith(start) for e in effects), (scenario, effects[:3])


def test_a_policy_decision_is_kept_with_its_reason(
        pipeline_run: list[tuple[RunRecord, Trajectory]]) -> None:
    controlled = [p for r, p in pipeline_run
                  if r.arm == "controlled" and r.scenario == "stale_index"]
    decisions = [d for p in controlled for d in p.policy]
    assert any(d.action != "allow" and d.reason for d in decisions), decisions[:3]


def test_the_trajectory_is_never_in_the_records_own_json(
        pipeline_run: list[tuple[RunRecord, Trajectory]], tmp_path: Path) -> None:
    record, path = pipeline_run[0]
    assert "trajectory" not in record.model_dump_json()
    full = record.model_copy(update={"trajectory": path.model_dump(mode="json")})
    assert "trajectory" not in full.model_dump_json()
    assert path.question not in full.model_dump_json()


def test_a_replaced_record_replaces_its_trajectory(tmp_path: Path,
                                                   pipeline_run: list[tuple[RunRecord,
                                                                            Trajectory]]
                                                   ) -> None:
    record, path = pipeline_run[0]
    first = record.model_copy(update={"trajectory": {**path.model_dump(mode="json"),
                                                     "question": "first"}})
    second = record.model_copy(update={"trajectory": {**path.model_dump(mode="json"),
                                                      "question": "second"}})
    key = record.key.as_str()
    with RunStore(tmp_path / "run") as store:
        store.add([first])
        store.add([second])  # already there: skipped, with its trajectory
        assert json.loads(store.trajectories([key])[key])["question"] == "first"
        store.add([second], replacing={key})
        assert json.loads(store.trajectories([key])[key])["question"] == "second"
        assert store.count() == 1
