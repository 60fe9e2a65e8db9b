"""The first layer that explains a strict failure, read off the trace (for diagnosis)."""

from __future__ import annotations

from collections.abc import Collection

from simulator.agent.trace import Trace
from simulator.answers.normalize import matches_any
from simulator.answers.schema import AgentAnswer
from simulator.corpus.model import Labels
from simulator.scoring.outcome import Scores
from simulator.vocabulary import FailureLayer


def failure_layer(scores: Scores, answer: AgentAnswer, trace: Trace, labels: Labels, *,
                  provider_error: bool = False, reader_error: bool = False,
                  agent_error: bool = False, live_snapshot: str = "live",
                  marked_current: frozenset[str] = frozenset(),
                  tampered: Collection[str] = ()) -> FailureLayer | None:
    """None when S holds; otherwise the earliest layer in the pipeline that failed.

    Order follows the data flow: provider, tool contract, completeness, authorization,
    session, freshness / retrieval, then the agent's own choices (abstained, reader).
    A record without a usable answer is explained by why it has none, before any layer the
    trace would blame: ``provider`` when the call failed, ``agent`` when the agent under test
    broke, ``reader`` when the model answered
    outside the answer contract (a reader error: unparseable, off-schema, or neither an
    answer nor an abstention).
    ``marked_current`` holds the documents the payloads labelled current: reading a
    superseded document that the metadata called current is a metadata failure, reading
    one honestly labelled superseded is an evidence-selection failure. An answer read from
    a required document served with edited text (``tampered``) fails on ``integrity``.
    """
    if scores.S:
        return None
    if provider_error:
        return "provider"
    if agent_error:
        return "agent"
    if reader_error:
        return "reader"
    calls = trace.tool_calls
    if any(c.status == "missing" for c in calls):
        return "completeness"
    if any(not c.valid for c in calls):
        return "contract"
    if any(c.access_denied for c in calls):
        return "authorization"
    if any(c.session_id != trace.caller_session_id for c in calls):
        return "session"
    if not scores.R:
        if any(c.snapshot_id not in (None, live_snapshot) and not c.partial for c in calls):
            return "freshness"
        if any(c.partial for c in calls):
            return "completeness"
        return "retrieval"
    if answer.abstained:
        return "abstained"
    if set(tampered) & set(labels.required_doc_ids):
        return "integrity"
    if matches_any(answer.answer, labels.superseded_answers, labels.answer_format):
        misled = any(c in labels.superseded_doc_ids and c in marked_current
                     for c in answer.citations)
        return "metadata" if misled else "evidence"
    return "reader"
