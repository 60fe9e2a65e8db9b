"""The deterministic reference judge: each metric by a written rule (docs/judge.md).

It reads what the strict scorer read (the record's answer, citations, trace and outcome)
beside the evaluator's labels (accepted and superseded answers, required and superseded
document ids), makes no model call and gives the same judgment every time. It is the
reference an LLM judge is calibrated against, so every value comes from a fixed anchor of
the rule that fired, and the justification names that rule.

Single-turn enterprise_v2 records carry no identifiers, no labelled case issue and no
workflow: identifier integrity, case issue identification and resolution alignment are
``not_applicable`` there, never 0 or 1 by default. A record that measured nothing (an agent,
provider or reader error) is ``unjudged``.
"""

from __future__ import annotations

from simulator.agent.trace import ToolCallTrace, Trace
from simulator.answers.normalize import matches_any
from simulator.corpus.model import Labels
from simulator.judge.metrics import MetricName, rubric_hash
from simulator.judge.model import Judgment, MetricScore
from simulator.runner.record import RunRecord

JUDGE_NAME = "deterministic"
RULES_VERSION = "deterministic-rules-1"
"""Bump when a rule or an anchor value below changes: it enters the rubric hash."""
RUBRIC_HASH = rubric_hash(RULES_VERSION)

_score = MetricScore.scored
_na = MetricScore.not_applicable


def unjudged(record_key: str, reason: str) -> Judgment:
    return Judgment(key=record_key, judge=JUDGE_NAME, rubric_hash=RUBRIC_HASH,
                    status="unjudged", reason=reason)


def error_reason(record: RunRecord) -> str | None:
    """Why a record measured nothing, or None: its answer is not the agent's to judge."""
    for flag, what in (("provider_error", "provider error"), ("agent_error", "agent error"),
                       ("reader_error", "reader error (answer outside the contract)")):
        if getattr(record, flag):
            return f"{what}: {record.reason or 'no reason recorded'}"
    return None


def judge_record(record: RunRecord, labels: Labels) -> Judgment:
    """The reference judgment of one single-turn record."""
    key = record.key.as_str()
    why = error_reason(record)
    if why is not None:
        return unjudged(key, why)
    trace = Trace.model_validate(record.trace)
    scores: dict[MetricName, MetricScore] = {
        "hallucination": grounding_fidelity(record),
        "retrieval_correctness": retrieval_correctness(trace, labels),
        "context_sufficiency": context_sufficiency(record, trace, labels),
        "answer_helpfulness": answer_helpfulness(record, labels),
        "answer_type_fit": answer_type_fit(record),
        "identifier_integrity": _na("enterprise_v2 answers carry no identifiers (error "
                                    "codes, versions, commands)"),
        "case_issue_identification": _na("single-turn record: no labelled case issue"),
        "case_resolution_alignment": _na("single-turn record: no labelled workflow"),
    }
    return Judgment(key=key, judge=JUDGE_NAME, rubric_hash=RUBRIC_HASH, status="judged",
                    scores=scores)


def grounding_fidelity(record: RunRecord) -> MetricScore:
    """M1: the answer value appears in a document it cites that was retrieved
    (the scorer's ``grounded``), with every citation retrieved (G)."""
    if record.abstained:
        return _na("a non-answer makes no claim to ground")
    if not record.citations:
        return _score(0.0, "answers with no citation: the claim is unsupported")
    if not record.grounded:
        return _score(0.10, "the answer value appears in no cited retrieved document")
    if not record.G:
        return _score(0.70, "supported by a cited document, but cites one not retrieved")
    return _score(1.0, "the answer value appears in a cited retrieved document")


def _no_valid_call(calls: tuple[ToolCallTrace, ...]) -> str:
    if any(c.status == "invalid" for c in calls):
        return "contract failure: the contract rejected every payload (V false)"
    if any(c.status == "missing" for c in calls):
        return "the tool returned nothing usable"
    return "no tool call was made"


def retrieval_correctness(trace: Trace, labels: Labels) -> MetricScore:
    """M2: the required documents came back, current and for the caller's own session.

    Only schema-valid calls answered for the caller's session count; a superseded version
    of the unit ranked above its current one is a minor issue (the retriever preferred the
    stale version), one in its place a severe one.
    """
    valid = [c for c in trace.tool_calls if c.valid]
    if not valid:
        return _score(0.0, _no_valid_call(trace.tool_calls))
    own = [c for c in valid if c.session_id == trace.caller_session_id]
    if not own:
        return _score(0.05, "retrieval answered from another session's state")
    order: dict[str, int] = {}
    for call in own:
        for doc in call.doc_ids:
            order.setdefault(doc, len(order))
    required = set(labels.required_doc_ids)
    found = required & set(order)
    stale = set(labels.superseded_doc_ids) & set(order)
    if not found:
        if stale:
            return _score(0.15, "stale documentation: the superseded version came back in "
                                "place of the current one")
        return _score(0.10, "none of the needed documents came back")
    if found != required:
        share = len(found) / len(required)
        return _score(0.31 + 0.29 * share, f"{len(found)} of {len(required)} needed "
                                           "documents came back")
    if stale and min(order[d] for d in stale) < min(order[d] for d in found):
        return _score(0.75, "the needed documents came back, ranked behind a superseded "
                            "version")
    return _score(1.0, "the needed current documents came back for this caller")


def context_sufficiency(record: RunRecord, trace: Trace, labels: Labels) -> MetricScore:
    """M3: the share of required evidence that reached the reader intact after the contract
    step, for the caller's session (the scorer's answerability rule, simulator.scoring.
    metrics.answerable, when all of it did)."""
    if record.answerable:
        return _score(1.0, "all required evidence reached the reader intact")
    valid = [c for c in trace.tool_calls if c.valid]
    if not valid:
        return _score(0.0, _no_valid_call(trace.tool_calls))
    own = [c for c in valid if c.session_id == trace.caller_session_id]
    if not own:
        return _score(0.0, "the evidence came from another session's state")
    present = {d for c in own for d in c.doc_ids}
    required = set(labels.required_doc_ids)
    share = len(required & present) / len(required) if required else 0.0
    if share >= 1.0:
        return _score(0.45, "the required evidence came back altered or withheld")
    if share > 0.0:
        return _score(0.31 + 0.29 * share, f"{share:.0%} of the required evidence came back")
    partial = any(c.partial for c in own)
    denied = any(c.access_denied for c in own)
    stale = bool(set(labels.superseded_doc_ids) & present)
    why = ("access to the required evidence was denied" if denied else
           "shards timed out; the required evidence was not among the hits" if partial else
           "only the superseded version came back" if stale else
           "the required evidence is not in what came back")
    return _score(0.0, why)


def answer_type_fit(record: RunRecord) -> MetricScore:
    """M5: answered where the record is answerable, a structured non-answer where not."""
    if record.answerable:
        if record.abstained:
            return _score(0.45, "declined although the intact evidence allowed an answer")
        return _score(1.0, "answered, as the evidence allowed")
    if record.abstained:
        return _score(1.0, "a structured non-answer where no safe answer was possible")
    return _score(0.15, "answered where the evidence could not support an answer")


def answer_helpfulness(record: RunRecord, labels: Labels) -> MetricScore:
    """M4: the correct, actionable answer (E), or a reasoned non-answer where unanswerable."""
    if not record.abstained:
        if record.E:
            return _score(1.0, "the correct current value")
        if matches_any(record.answer, labels.superseded_answers, labels.answer_format):
            return _score(0.05, "the superseded value: acting on it applies a retired policy")
        return _score(0.10, "a wrong value")
    if record.answerable:
        return _score(0.40, "withholds the answer the evidence supported")
    if record.reason:
        return _score(0.90, "a reasoned non-answer where none was possible")
    return _score(0.70, "a non-answer where none was possible, without a reason")
