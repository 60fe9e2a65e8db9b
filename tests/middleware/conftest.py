"""The reference environment, a chain per scenario, and a one-line way to run a record."""

from __future__ import annotations

import pytest

from middleware import FaultContext, ToolCall, ToolChain, build_tool_chain
from simulator.corpus import Corpus, Labels, Task
from simulator.endpoints import PolicyEnvironment


def search_call(task: Task) -> ToolCall:
    """The call layerrag's agent makes for a task."""
    return ToolCall(name="search_policies",
                    args={"query": task.question, "session": task.session.model_dump()})


def run_record(chain: ToolChain, task: Task, labels: Labels, *, attempt: int = 0,
               seed: int = 0) -> dict | None:
    return chain.invoke(search_call(task),
                        FaultContext(task=task, attempt=attempt, seed=seed))


def revoked_groups(env: PolicyEnvironment, task: Task) -> tuple[str, ...]:
    """The access groups permission_denied revokes for ``task``'s calls, computed here by the
    rule of its docstring: those of the current hits of the task's question that state a value
    for it (else the best-ranked current hit's, else the top hit's)."""
    from simulator.answers.extract import extract_value

    found = [d for d in (env.registry.get(i) for i in env.results(task.question, task.session))
             if d is not None]
    current = [d for d in found if d.status == "current"]
    answering = [d for d in current if extract_value(d.text, task.question, task.answer_format)]
    return tuple(dict.fromkeys(d.access_group for d in answering or (current or found)[:1]))


@pytest.fixture(scope="session")
def env(corpus: Corpus) -> PolicyEnvironment:
    return PolicyEnvironment.from_corpus(corpus, retriever="tfidf_domain_validity", top_k=3)


@pytest.fixture(scope="session")
def chains(env: PolicyEnvironment) -> dict[str, ToolChain]:
    from middleware import SCENARIO_NAMES

    return {name: build_tool_chain(name, env) for name in SCENARIO_NAMES}


@pytest.fixture(scope="session")
def records(corpus: Corpus) -> list[tuple[Task, Labels]]:
    return list(zip(corpus.tasks, corpus.labels, strict=True))


@pytest.fixture(scope="session")
def outputs(chains: dict[str, ToolChain], records: list[tuple[Task, Labels]]
            ) -> dict[str, list[dict | None]]:
    """First-attempt raw output of every scenario for every task (seed 0), computed once."""
    return {name: [run_record(chain, t, lab) for t, lab in records]
            for name, chain in chains.items()}
