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
    """The access groups permission_denied revokes for ``task``'s calls, computed without the
    fault: those of the current documents the retriever ranks for the task's question."""
    found = [env.registry.get(d) for d in env.results(task.question, task.session)]
    current = [d for d in found if d is not None and d.status == "current"] or found[:1]
    return tuple(dict.fromkeys(d.access_group for d in current if d is not None))


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
