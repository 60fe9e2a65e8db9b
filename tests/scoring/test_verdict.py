"""A record's outcome: provider and reader errors are outcomes of their own, never a
structured non-answer and never safe, whatever stand-in answer they leave behind."""

from __future__ import annotations

from simulator.readers.base import AgentAnswer, unknown_answer
from simulator.scoring.verdict import judge
from tests.scoring.test_metrics import LABELS, TASK, TEXTS, call, trace

STALE = trace(call(doc_ids=("d-old",), snapshot_id="2023"))
"""An unanswerable record: the index predates the current version (freshness)."""


def test_an_honest_abstention_on_an_unanswerable_record_is_safe() -> None:
    outcome = judge(unknown_answer("stale"), STALE, LABELS, TASK, TEXTS)
    assert outcome.abstained and outcome.safe_resolution
    assert outcome.failure_layer == "freshness" and not outcome.reader_error


def test_a_parse_failure_is_a_reader_error_not_an_abstention() -> None:
    outcome = judge(unknown_answer("reader error: the answer was not valid JSON"), STALE,
                    LABELS, TASK, TEXTS, reader_error=True)
    assert outcome.reader_error and not outcome.provider_error
    assert not outcome.abstained and not outcome.safe_resolution
    assert outcome.failure_layer == "reader"


def test_a_parse_failure_on_an_answerable_record_is_a_reader_error_too() -> None:
    outcome = judge(unknown_answer("reader error: no answer and no abstention"),
                    trace(call()), LABELS, TASK, TEXTS, reader_error=True)
    assert outcome.answerable and not outcome.S
    assert (outcome.failure_layer, outcome.abstained) == ("reader", False)


def test_a_wrong_parsed_answer_shares_the_reader_layer_but_not_the_flag() -> None:
    outcome = judge(AgentAnswer(answer="12 days", citations=("d-cur",)), trace(call()),
                    LABELS, TASK, TEXTS)
    assert outcome.failure_layer == "reader" and not outcome.reader_error


def test_a_provider_error_is_neither_abstained_nor_safe() -> None:
    outcome = judge(unknown_answer("provider failed after 3 attempts"), STALE, LABELS, TASK,
                    TEXTS, provider_error=True)
    assert outcome.provider_error and not outcome.abstained and not outcome.safe_resolution
    assert outcome.failure_layer == "provider"


def test_a_provider_error_wins_over_a_reader_error() -> None:
    outcome = judge(unknown_answer("failed"), STALE, LABELS, TASK, TEXTS,
                    provider_error=True, reader_error=True)
    assert (outcome.provider_error, outcome.reader_error) == (True, False)
    assert outcome.failure_layer == "provider"
