"""Security: withheld text never leaves the endpoint, and a wrong-session payload never
carries the caller's session id. Checked on every enterprise_v2 task, through the fault
chain, a LangChain create_agent agent (tool messages and everything the model sees) and
layerrag's own agent graph (its whole final state)."""

from __future__ import annotations

import hashlib
import json

import pytest
from langchain.agents import create_agent

from middleware import FaultInjectionMiddleware, FaultPlan, build_tool_chain, policy_tools
from middleware.adapters.scripted_model import SearchThenAnswerModel
from simulator.corpus import Corpus, Document
from simulator.endpoints import PolicyEnvironment
from tests.middleware.conftest import revoked_groups, run_record


def _canary(doc: Document) -> str:
    return "CANARY-" + hashlib.sha256(f"canary|{doc.doc_id}".encode()).hexdigest()[:20]


@pytest.fixture(scope="module")
def canary_corpus(corpus: Corpus) -> Corpus:
    """The reference corpus with a unique canary string planted in every document."""
    data = corpus.model_dump()
    data["documents"] = [{**d.model_dump(), "text": f"{d.text} Reference {_canary(d)}."}
                         for d in corpus.documents]
    return Corpus.model_validate(data)


@pytest.fixture(scope="module")
def canary_env(canary_corpus: Corpus) -> PolicyEnvironment:
    return PolicyEnvironment.from_corpus(canary_corpus)


def _withheld_canaries(corpus: Corpus, groups: tuple[str, ...]) -> list[str]:
    """Canaries of every document a caller without ``groups`` may not read."""
    return [_canary(d) for d in corpus.documents if d.access_group in groups]


def _leaks(text: str, canaries: list[str]) -> list[str]:
    return [c for c in canaries if c in text]


def test_every_document_carries_its_canary(canary_corpus: Corpus) -> None:
    assert all(_canary(d) in d.text for d in canary_corpus.documents)


def test_no_withheld_canary_reaches_any_payload(canary_corpus: Corpus,
                                                canary_env: PolicyEnvironment) -> None:
    chain = build_tool_chain("permission_denied", canary_env)
    for task, labels in zip(canary_corpus.tasks, canary_corpus.labels, strict=True):
        canaries = _withheld_canaries(canary_corpus, revoked_groups(canary_env, task))
        for attempt in (0, 1):
            raw = run_record(chain, task, labels, attempt=attempt)
            assert raw["access"]["denied"]
            assert not _leaks(json.dumps(raw), canaries), task.task_id


def test_no_withheld_canary_reaches_a_tool_message_or_the_model(
        canary_corpus: Corpus, canary_env: PolicyEnvironment) -> None:
    agent = create_agent(SearchThenAnswerModel(), tools=policy_tools(canary_env),
                         middleware=[FaultInjectionMiddleware()], context_schema=FaultPlan)
    for task, _labels in zip(canary_corpus.tasks, canary_corpus.labels, strict=True):
        plan = FaultPlan(scenario="permission_denied", task=task)
        state = agent.invoke({"messages": [("user", task.question)]}, context=plan)
        seen = json.dumps([m.model_dump() for m in state["messages"]], default=str)
        assert '"denied": true' in state["messages"][2].content
        assert not _leaks(seen, _withheld_canaries(canary_corpus,
                                                   revoked_groups(canary_env, task)))


@pytest.mark.parametrize("pipeline", ["paper", "open"])
def test_no_withheld_canary_reaches_layerrags_own_agent(canary_corpus: Corpus,
                                                         pipeline: str) -> None:
    """Also in the open pipeline, where the reader is prompted after the denial."""
    from simulator.agent.graph import run_episodes
    from simulator.runner.config import RunConfig
    from simulator.runner.matrix import Cell, MatrixRunner

    runner = MatrixRunner(RunConfig(scenarios=("permission_denied",), pipeline=pipeline),
                          canary_corpus)
    cells = [Cell("deterministic", "permission_denied", mode, "uncontrolled", task, labels)
             for task, labels in zip(canary_corpus.tasks, canary_corpus.labels, strict=True)
             for mode in ("strict", "repair")]
    episodes = run_episodes(runner.graph, [runner.context(cell) for cell in cells])
    assert len(episodes) == len(cells)
    prompted = sum(e["reader_result"] is not None for e in episodes)
    assert prompted == (len(cells) if pipeline == "open" else 0)
    for cell, episode in zip(cells, episodes, strict=True):
        seen = json.dumps(episode, default=lambda o: getattr(o, "__dict__", str(o)))
        assert not _leaks(seen, _withheld_canaries(canary_corpus,
                                                   revoked_groups(runner.env, cell.task)))


def test_wrong_session_payloads_never_carry_the_callers_session_id(
        canary_corpus: Corpus, canary_env: PolicyEnvironment) -> None:
    chain = build_tool_chain("wrong_session", canary_env)
    for task, labels in zip(canary_corpus.tasks, canary_corpus.labels, strict=True):
        for attempt, seed in ((0, 0), (1, 0), (0, 7)):
            raw = run_record(chain, task, labels, attempt=attempt, seed=seed)
            assert task.session.session_id not in json.dumps(raw)


def test_wrong_session_tool_messages_never_carry_the_callers_session_id(
        canary_corpus: Corpus, canary_env: PolicyEnvironment) -> None:
    agent = create_agent(SearchThenAnswerModel(), tools=policy_tools(canary_env),
                         middleware=[FaultInjectionMiddleware()], context_schema=FaultPlan)
    for task, _labels in list(zip(canary_corpus.tasks, canary_corpus.labels, strict=True)):
        plan = FaultPlan(scenario="wrong_session", task=task)
        state = agent.invoke({"messages": [("user", task.question)]}, context=plan)
        assert task.session.session_id not in state["messages"][2].content
