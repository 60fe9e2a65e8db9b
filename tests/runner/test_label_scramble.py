"""Faults aim without labels: deranging every task's labels changes no agent output.

The labels' required and superseded document ids, expected, accepted and superseded answers
and access group are rotated by three rows (one policy unit of enterprise_v2) across the whole
corpus: a derangement in which no task keeps its own unit's labels. The scrambled Corpus is the
one the runner is built from, so the environment, the fault chains and the agent's tools see
it exactly as a run would. Then every scenario (the nine and the three misleading ones), both
contract modes and several arms (:data:`ARMS`), for the pipeline, ``react`` and
``examples.custom_agent``, must give records
whose agent outputs are identical: the answer, citations, abstention and its reason, the
retrieved ids, the prompt hash, token counts, and the whole trace (every tool call with its
status, returned ids, session, snapshot, partial and access flags; the evidence ids; the policy
steps; whether a prompt was built). Only scores (E, R, S, answerable, safe, misled, ...) may
move, and the test checks that they do, so it is not vacuous.
"""

from __future__ import annotations

import pytest

from simulator.corpus import Corpus
from simulator.runner.config import RunConfig
from simulator.runner.matrix import Cell, MatrixRunner
from simulator.runner.record import RunRecord
from simulator.vocabulary import SCENARIO_GROUPS, SCENARIO_NAMES

SCENARIOS = tuple(dict.fromkeys((*SCENARIO_NAMES, *SCENARIO_GROUPS["misleading"])))
AGENTS = ("pipeline", "react", "examples.custom_agent:build_agent")
ARMS = {"pipeline": ("uncontrolled", "controlled", "evidence_integrity")}
"""No policy, every default policy in gate order (their fetches go through the faults too),
and the registry check the misleading scenarios are built for; the tool-calling agents, slower
per record, run the first two on half the rows."""
TOOL_ARMS, TOOL_ROWS = ("uncontrolled", "controlled"), range(6)
ROWS = range(12)
OUTPUTS = ("answer", "citations", "abstained", "reason", "retrieved_doc_ids", "prompt_hash",
           "input_tokens", "output_tokens", "provider_error", "reader_error", "trace")
SCORES = ("E", "R", "S", "answerable", "safe_resolution", "misled")
ROTATED = ("required_doc_ids", "superseded_doc_ids", "expected_answer", "accepted_answers",
           "superseded_answers", "access_group")


def scrambled(corpus: Corpus, shift: int = 3) -> Corpus:
    labels = corpus.labels
    moved = tuple(lab.model_copy(update={f: getattr(labels[(i + shift) % len(labels)], f)
                                         for f in ROTATED})
                  for i, lab in enumerate(labels))
    assert all(a.required_doc_ids != b.required_doc_ids for a, b in zip(labels, moved,
                                                                         strict=True))
    return corpus.model_copy(update={"labels": moved})


def _records(corpus: Corpus, agent: str) -> dict[str, RunRecord]:
    arms = ARMS.get(agent, TOOL_ARMS)
    rows = ROWS if agent in ARMS else TOOL_ROWS
    config = RunConfig(scenarios=SCENARIOS, agent=agent, arms=arms)
    runner = MatrixRunner(config, corpus)
    cells = [Cell("deterministic", scenario, mode, arm, corpus.tasks[row], corpus.labels[row],
                  agent)
             for scenario in SCENARIOS for mode in config.modes for arm in arms for row in rows]
    return {c.key.as_str(): r for c, r in zip(cells, runner.run_cells(cells), strict=True)}


@pytest.mark.slow
@pytest.mark.parametrize("agent", AGENTS)
def test_scrambled_labels_change_no_agent_output_in_any_scenario(corpus: Corpus,
                                                                 agent: str) -> None:
    true, other = _records(corpus, agent), _records(scrambled(corpus), agent)
    assert true.keys() == other.keys()
    for key, record in true.items():
        for field in OUTPUTS:
            assert getattr(record, field) == getattr(other[key], field), (key, field)
    moved = sum(any(getattr(r, f) != getattr(other[k], f) for f in SCORES)
                for k, r in true.items())
    assert moved > len(true) // 4  # the scores did read the scrambled labels
    misleading = [r for r in true.values() if r.scenario.startswith("misleading_")]
    assert any(r.misled for r in misleading)  # the misleading scenarios were in play
