"""The reference judge on a case turn: the single-turn rules where a turn has a value to
judge, and the three case metrics the single-turn records leave not applicable.

A case turn carries, beside the strict scorer's outcome, its case scores (simulator/cases/
scoring.py: identifier exactness and corruption, workflow order, prohibited actions, safety,
type fit) and its reply. The rules below turn those into the paper's metrics with fixed
anchors, as the single-turn rules do; the evaluator's case labels say which documents are
the case's own.

- **Value turns** (answerable, follow-up) are judged by the single-turn rules for grounding,
  retrieval correctness, context sufficiency, helpfulness and answer-type fit.
- **Clarify and abstain turns** (underspecified, unanswerable) have no value and no required
  document: grounding, retrieval correctness and context sufficiency are not applicable;
  helpfulness and answer-type fit come from whether the reply was the safe one (a
  clarifying question; a non-answer).
- **Identifier integrity**: 1.0 when every expected identifier is there exactly and none is
  corrupted; severe (0.10) when the reply names an identifier shaped like the case's that is
  not the case's (another case's code leaking in, a digit changed); moderate (0.45) when an
  expected identifier is missing; not applicable when the turn expects none and the reply
  names none.
- **Case issue identification**: does the reply work on this case? 1.0 when it cites one of
  the case's own documents (or, for a non-answer, names the case's identifiers or asks for
  them); severe (0.10) when it cites only documents of other cases; not applicable to a
  non-answer that names nothing.
- **Resolution alignment**: 0.0 when the reply recommends a prohibited action; 1.0 when its
  steps keep the workflow's order; 0.30 when they break it; not applicable when the turn
  expects no steps and the reply recommends none (the offline agents recommend none).
"""

from __future__ import annotations

from simulator.agent.trace import Trace
from simulator.cases import CaseLabels
from simulator.corpus.model import Labels
from simulator.judge.deterministic import (
    JUDGE_NAME,
    RUBRIC_HASH,
    answer_helpfulness,
    answer_type_fit,
    context_sufficiency,
    error_reason,
    grounding_fidelity,
    retrieval_correctness,
    unjudged,
)
from simulator.judge.metrics import MetricName
from simulator.judge.model import Judgment, MetricScore
from simulator.runner.record import RunRecord

_score = MetricScore.scored
_na = MetricScore.not_applicable


def judge_case_turn(record: RunRecord, labels: Labels, case: CaseLabels) -> Judgment:
    """The reference judgment of one case turn (``labels``: its strict labels)."""
    key = record.key.as_str()
    why = error_reason(record)
    if why is not None:
        return unjudged(key, why)
    turn = record.case
    if turn is None or turn.reply is None:
        return unjudged(key, "a case turn without its reply")
    trace = Trace.model_validate(record.trace)
    valued = turn.score.S is not None
    scores: dict[MetricName, MetricScore] = {
        "hallucination": grounding_fidelity(record) if valued else
        _na(f"{turn.kind} turn: the safe reply states no value"),
        "retrieval_correctness": retrieval_correctness(trace, labels) if valued else
        _na(f"{turn.kind} turn: no document is required"),
        "context_sufficiency": context_sufficiency(record, trace, labels) if valued else
        _na(f"{turn.kind} turn: no document is required"),
        "answer_helpfulness": answer_helpfulness(record, labels) if valued else
        _safe_reply(turn.kind, turn.score.safe, "help"),
        "answer_type_fit": answer_type_fit(record) if valued else
        _safe_reply(turn.kind, turn.score.safe, "fit"),
        "identifier_integrity": _identifiers(turn.score.identifier_exact,
                                             turn.score.corrupted),
        "case_issue_identification": _issue(record, case),
        "case_resolution_alignment": _alignment(turn.score.workflow_ok,
                                                turn.score.prohibited),
    }
    return Judgment(key=key, judge=JUDGE_NAME, rubric_hash=RUBRIC_HASH, status="judged",
                    scores=scores)


def _safe_reply(kind: str, safe: bool, verb: str) -> MetricScore:
    wanted = "a clarifying question" if kind == "underspecified" else "a non-answer"
    if safe:
        return _score(1.0, f"{wanted}, as the {kind} turn needs")
    return _score(0.15, f"the {kind} turn needed {wanted}; the reply does not {verb} it")


def _identifiers(exact: bool | None, corrupted: bool) -> MetricScore:
    if corrupted:
        return _score(0.10, "an identifier shaped like the case's that is not the case's "
                            "(corrupted or from another case)")
    if exact is None:
        return _na("the turn expects no identifier and the reply names none")
    if exact:
        return _score(1.0, "every expected identifier, exactly")
    return _score(0.45, "an expected identifier is missing")


def _issue(record: RunRecord, case: CaseLabels) -> MetricScore:
    own = set(case.doc_ids)
    if record.citations:
        if own & set(record.citations):
            return _score(1.0, "cites the case's own article")
        return _score(0.10, "cites only other cases' articles: the case is misidentified")
    turn = record.case
    assert turn is not None and turn.reply is not None
    named = {i.value for i in case.identifiers}
    if named & set(turn.reply.identifiers) or turn.reply.clarify:
        return _score(0.90, "a non-answer that keeps to the case (names its identifiers or "
                            "asks for them)")
    return _na("a non-answer that names nothing of the case")


def _alignment(workflow_ok: bool | None, prohibited: bool) -> MetricScore:
    if prohibited:
        return _score(0.0, "recommends a prohibited action")
    if workflow_ok is None:
        return _na("the turn expects no steps and the reply recommends none")
    if workflow_ok:
        return _score(1.0, "the steps keep the workflow's order and prerequisites")
    return _score(0.30, "the steps break the workflow's order or leave one out")
