"""Tests that kill the mutants issue 31 found alive: R weakened from "every required
document" to "any" (no bundled task has two), V true with zero tool calls, and the failure
layer of a call both partial and stale (completeness, not freshness). The archive-row
mutant (variant or domain disagreeing with its task) is killed in test_archive_tampering."""

from __future__ import annotations

from simulator.agent.trace import ToolCallTrace, Trace
from simulator.answers.schema import AgentAnswer
from simulator.corpus import Corpus
from simulator.scoring.failure import failure_layer
from simulator.scoring.metrics import required_retrieved, schema_valid, score


def call(*doc_ids: str, **fields: object) -> ToolCallTrace:
    return ToolCallTrace(tool="search_policies", attempt=1, status="ok", valid=True,
                         doc_ids=doc_ids, session_id="s", **fields)  # type: ignore[arg-type]


def test_r_needs_every_required_document_not_any(tiny_corpus: Corpus) -> None:
    labels = tiny_corpus.labels[0]
    other = tiny_corpus.documents[-1].doc_id
    two = labels.model_copy(update={"required_doc_ids": (*labels.required_doc_ids, other)})
    first = labels.required_doc_ids[0]
    assert not required_retrieved(Trace(caller_session_id="s", tool_calls=(call(first),)), two)
    both = Trace(caller_session_id="s", tool_calls=(call(first, other),))
    assert required_retrieved(both, two)


def test_v_is_false_without_any_tool_call() -> None:
    assert not schema_valid(Trace(caller_session_id="s"))
    assert schema_valid(Trace(caller_session_id="s", tool_calls=(call(),)))


def test_a_call_both_partial_and_stale_fails_on_completeness(tiny_corpus: Corpus) -> None:
    task, labels = tiny_corpus.tasks[0], tiny_corpus.labels[0]
    trace = Trace(caller_session_id="s",
                  tool_calls=(call(snapshot_id="2019", partial=True),))
    answer = AgentAnswer(answer="nothing", citations=())
    scores = score(answer, trace, labels, task, {})
    assert not scores.R
    assert failure_layer(scores, answer, trace, labels) == "completeness"
    stale_only = Trace(caller_session_id="s", tool_calls=(call(snapshot_id="2019"),))
    assert failure_layer(score(answer, stale_only, labels, task, {}), answer, stale_only,
                         labels) == "freshness"
