"""Faults are deterministic given (task, attempt, seed): within a run, across runs and
across processes."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

from middleware import SCENARIO_NAMES, ToolChain, build_tool_chain
from middleware.faults.wrong_session import other_session
from simulator.corpus import Corpus, Labels, Task
from simulator.endpoints import HEALTHY, PolicyEnvironment
from tests.middleware.conftest import run_record

HASH_SCRIPT = """
import hashlib, json
from middleware import SCENARIO_NAMES, FaultContext, ToolCall, build_tool_chain
from simulator.corpus import build_corpus
from simulator.endpoints import PolicyEnvironment
corpus = build_corpus()
env = PolicyEnvironment.from_corpus(corpus)
digest = hashlib.sha256()
for name in SCENARIO_NAMES:
    chain = build_tool_chain(name, env)
    for task, labels in list(zip(corpus.tasks, corpus.labels))[::7]:
        for attempt in (0, 1):
            for seed in (0, 3):
                call = ToolCall(name="search_policies", args={
                    "query": task.question, "session": task.session.model_dump()})
                raw = chain.invoke(call, FaultContext(task=task,
                                                      attempt=attempt, seed=seed))
                digest.update(json.dumps(raw, sort_keys=True).encode())
print(digest.hexdigest())
"""


def _digest(chains: dict[str, ToolChain], records: list[tuple[Task, Labels]]) -> str:
    digest = hashlib.sha256()
    for name in SCENARIO_NAMES:
        for task, labels in records[::7]:
            for attempt in (0, 1):
                for seed in (0, 3):
                    raw = run_record(chains[name], task, labels, attempt=attempt, seed=seed)
                    digest.update(json.dumps(raw, sort_keys=True).encode())
    return digest.hexdigest()


def test_a_fresh_environment_gives_the_same_payloads(
        corpus: Corpus, chains: dict[str, ToolChain],
        records: list[tuple[Task, Labels]]) -> None:
    fresh_env = PolicyEnvironment.from_corpus(corpus)
    fresh = {name: build_tool_chain(name, fresh_env) for name in SCENARIO_NAMES}
    assert _digest(fresh, records) == _digest(chains, records)


def test_another_process_with_another_hash_seed_gives_the_same_payloads(
        chains: dict[str, ToolChain], records: list[tuple[Task, Labels]]) -> None:
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", HASH_SCRIPT], capture_output=True, text=True,
                         check=True, cwd=root, env={"PYTHONHASHSEED": "12345",
                                                    "PATH": "/usr/bin:/bin"})
    assert out.stdout.strip() == _digest(chains, records)


def test_seed_dependent_faults_change_with_the_seed(chains: dict[str, ToolChain],
                                                    records: list[tuple[Task, Labels]]
                                                    ) -> None:
    for name in ("partial_timeout", "missing_tool_output", "wrong_session",
                 "corrupted_metadata"):
        outputs = {json.dumps([run_record(chains[name], t, lab, seed=s)
                               for t, lab in records[:30]], sort_keys=True)
                   for s in (0, 1)}
        assert len(outputs) == 2, name


def test_the_wrong_session_choice_keeps_no_state_between_calls(
        env: PolicyEnvironment, records: list[tuple[Task, Labels]]) -> None:
    callers = [task.session.session_id for task, _ in records[:40]]
    forward = [other_session(env, c, 1, HEALTHY) for c in callers]
    backward = [other_session(env, c, 1, HEALTHY) for c in reversed(callers)]
    assert forward == backward[::-1]
