"""The seven policies act on a tool-calling agent through middleware: the focused study's
controlled arm is safe, and layer credit credits schema repair on its own layer."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.corpus import Corpus
from simulator.evaluation import layer_credit, run_focused_study
from simulator.runner.config import RunConfig
from simulator.runner.matrix import run_matrix
from simulator.runner.store import RunStore


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory, corpus: Corpus):  # noqa: ANN201
    return run_focused_study(tmp_path_factory.mktemp("react_study"), agent="react",
                             corpus=corpus, progress=False)


def test_the_controlled_arm_of_the_react_agent_is_safe(study) -> None:  # noqa: ANN001
    controlled = study.arm("controlled")
    assert study.agent == "react"
    assert controlled.wrong_answers == 0
    assert controlled.incorrect_interventions == 0
    assert controlled.answerable_successes == controlled.answerable
    assert controlled.unsafe_safe == controlled.unsafe
    assert study.controlled_is_safe()


def test_the_uncontrolled_react_agent_answers_wrongly_somewhere(study) -> None:  # noqa: ANN001
    assert study.arm("uncontrolled").wrong_answers > 0


def test_bounded_retry_searches_again_inside_one_tool_call(tmp_path: Path,
                                                          corpus: Corpus) -> None:
    config = RunConfig(agent="react", scenarios=("partial_timeout",), modes=("strict",),
                       arms=("uncontrolled", "bounded_retry"), tasks=24)
    run_matrix(config, tmp_path, progress=False, corpus=corpus)
    with RunStore(tmp_path, create=False) as store:
        records = list(store.records())
    retried = [r for r in records if r.arm == "bounded_retry"]
    assert max(len(r.trace["tool_calls"]) for r in retried) > 1
    assert [c["attempt"] for c in max(retried, key=lambda r: len(r.trace["tool_calls"]))
            .trace["tool_calls"]] == list(range(max(len(r.trace["tool_calls"])
                                                    for r in retried)))
    base = sum(r.S for r in records if r.arm == "uncontrolled")
    assert sum(r.S for r in retried) > base


def test_credit_credits_schema_repair_for_the_react_agent(tmp_path: Path,
                                                         corpus: Corpus) -> None:
    config = RunConfig(agent="react", modes=("strict",),
                       arms=("uncontrolled", "schema_repair"), task_rows=tuple(range(0, 240, 5)))
    run_matrix(config, tmp_path, progress=False, corpus=corpus)
    with RunStore(tmp_path, create=False) as store:
        credit = layer_credit(list(store.records()), "schema_repair")
    assert credit.verdict == "credited"
    assert credit.agent == "react" and credit.as_json()["agent"] == "react"
    assert credit.target_scenarios == ("schema_drift",)
    assert credit.largest_off_target == 0.0
