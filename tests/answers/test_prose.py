"""Answers in prose: the value by the task's answer format, citations from brackets, a
narrow abstention rule, and a reader error for everything else."""

from __future__ import annotations

import pytest

from simulator.answers.formats import BUILTIN_FORMATS
from simulator.answers.normalize import matches_any
from simulator.answers.prose import (
    ABSTAINED_NOTE,
    PROSE_NOTE,
    abstention_in,
    citations_in,
    prose_abstention,
    prose_answer,
    read_prose,
)
from simulator.corpus import Corpus

CHOICE = "choice (one of: a rotating draw | length of service)"
DESK_CODE = "desk_code (normalise: ignore_spaces; pattern: [A-Z]{2} ?-\\d{3})"

# (format, question, prose, the value read, as the scorer normalises it)
BY_FORMAT = [
    ("duration", "How long is the return window for a regular purchase?",
     "The return window for a regular purchase is 30 days [doc_a1].", "30 days"),
    ("amount", "What is the most a manager can approve without finance?",
     "Managers can approve up to $1,500 on their own [doc_a1].", "$1500"),
    ("count", "How many reviewers must approve a pull request?",
     "A pull request needs two reviewers [doc_a1].", "2"),
    ("percentage", "What share of users must be affected for a Severity 1?",
     "An outage is Severity 1 once 25 percent of users are affected [doc_a1].", "25%"),
    ("role", "Who approves access outside opening hours?",
     "Access outside opening hours is approved by the Facilities Director [doc_a1].",
     "facilities director"),
    ("system", "Where are expense claims filed?",
     "Expense claims are filed in Concur Expense [doc_a1].", "concur expense"),
    ("yes_no", "Can a contractor keep a company laptop after the contract ends?",
     "No. Contractors must not keep company laptops [doc_a1].", "no"),
    ("frequency", "How often are access reviews held?",
     "Access reviews are held quarterly [doc_a1].", "every quarter"),
    ("time_of_day", "When does the service desk close on Fridays?",
     "The service desk closes at 5:30 pm on Fridays [doc_a1].", "17:30"),
    (CHOICE, "Are shifts assigned by a rotating draw or by length of service?",
     "Shifts are no longer assigned by length of service but by a rotating draw [doc_a1].",
     "rotating draw"),
    (DESK_CODE, "Which desk code do visitors book?",
     "Visitors book desk HQ-042 at reception [doc_a1].", "hq-042"),
]


@pytest.mark.parametrize(("answer_format", "question", "text", "value"), BY_FORMAT,
                         ids=[row[0].split(" (")[0] for row in BY_FORMAT])
def test_the_value_is_read_by_the_tasks_answer_format(answer_format: str, question: str,
                                                      text: str, value: str) -> None:
    read = read_prose(text, question, answer_format)
    assert not read.unparseable and not read.answer.abstained
    assert matches_any(read.answer.answer, [value], answer_format), read.answer.answer
    assert read.answer.citations == ("doc_a1",)


def test_every_answer_format_has_a_prose_case() -> None:
    named = {row[0].split(" (")[0] for row in BY_FORMAT}
    assert set(BUILTIN_FORMATS) <= named and {"choice", "desk_code"} <= named


def test_the_answer_is_the_value_not_the_sentence() -> None:
    read = read_prose("The return window is 30 days [doc_a1].",
                      "How long is the return window?", "duration")
    assert read.answer.answer == "30 days"
    assert read.answer.reason == f"{PROSE_NOTE}: The return window is 30 days [doc_a1]."


def test_a_yes_no_answer_is_the_word_it_opens_with() -> None:
    question = "May a pre-approved change go ahead during the freeze?"
    said_yes = read_prose("Yes, although other changes may not [doc_a1].", question, "yes_no")
    said_no = read_prose("The answer is no [doc_a1].", question, "yes_no")
    assert (said_yes.answer.answer, said_no.answer.answer) == ("yes", "no")


def test_the_answer_is_a_full_value_of_the_format() -> None:
    read = read_prose("The answer is three [doc_a1].", "How many bids are needed?", "count")
    assert read.answer.answer == "three"


def test_a_plain_value_in_a_sentence_sharing_no_word_with_the_question_is_read() -> None:
    read = read_prose("You have fourteen days [doc_a1].",
                      "How soon must a critical patch be applied?", "duration")
    assert read.answer.answer == "fourteen days"


def test_citations_are_every_bracket_in_order_once() -> None:
    text = "It is 30 days [doc_b2] per the policy [doc_a1] and its annex [doc_b2]."
    assert citations_in(text) == ("doc_b2", "doc_a1")
    assert read_prose(text, "How long is it?", "duration").answer.citations == (
        "doc_b2", "doc_a1")


def test_a_citations_digits_are_not_read_as_the_value() -> None:
    read = read_prose("Bids from three firms [RET-12-v2].",
                      "How many law firms must be asked?", "count")
    assert read.answer.answer == "three"


def test_an_answer_without_citations_is_still_an_answer() -> None:
    read = read_prose("30 days.", "How long is the return window?", "duration")
    assert read.answer.answer == "30 days" and read.answer.citations == ()


@pytest.mark.parametrize("text", [
    "I can't find the return window in the documents.",
    "I cannot answer this from the documents: access was denied.",
    "I couldn’t determine which version applies.",
    "I don't know.",
    "The return window is not stated in the provided documents.",
    "There is insufficient evidence to answer.",
    "Unable to find a current policy on this.",
])
def test_an_abstention_in_prose_is_recognised(text: str) -> None:
    read = read_prose(text, "How long is the return window?", "duration")
    assert read.answer.abstained and not read.unparseable
    assert read.answer.answer is None and read.answer.citations == ()
    assert read.answer.reason == f"{ABSTAINED_NOTE}: {text}"


def test_a_hedge_that_mentions_a_value_is_an_abstention() -> None:
    read = read_prose("I can't find the current window; an older version said 30 days "
                      "[doc_a1].", "How long is the return window?", "duration")
    assert read.answer.abstained and read.answer.answer is None


@pytest.mark.parametrize("text", [
    "Refunds are not allowed after the window closes [doc_a1].",
    "The old limit no longer applies [doc_a1].",
    "No, contractors cannot keep laptops [doc_a1].",
])
def test_the_abstention_rule_is_narrow(text: str) -> None:
    assert abstention_in(text) is None


@pytest.mark.parametrize(("text", "answer_format"), [
    ("Please see the returns policy [doc_a1].", "duration"),
    ("[doc_a1]", "duration"),
    ("The window is long [doc_a1].", "duration"),
    ("It depends on the region.", "amount"),
    ("The answer is 30 days [doc_a1].", DESK_CODE),
])
def test_prose_with_no_value_and_no_abstention_is_a_reader_error(text: str,
                                                                 answer_format: str) -> None:
    read = read_prose(text, "How long is the return window?", answer_format)
    assert read.unparseable
    assert read.answer.abstained and read.answer.answer is None
    assert (read.answer.reason or "").startswith("reader error: ")


def test_no_answer_format_is_a_reader_error() -> None:
    assert read_prose("It is 30 days [doc_a1].", "How long?", None).unparseable


def test_what_the_driver_writes_reads_back_for_every_reference_task(corpus: Corpus) -> None:
    for task, labels in zip(corpus.tasks, corpus.labels, strict=True):
        text = prose_answer(labels.expected_answer, ["doc_a1", "doc_b2"])
        read = read_prose(text, task.question, task.answer_format)
        assert matches_any(read.answer.answer, labels.accepted_answers,
                           task.answer_format), (task.task_id, text, read.answer)
        assert read.answer.citations == ("doc_a1", "doc_b2")


def test_the_drivers_abstention_is_recognised() -> None:
    text = prose_abstention("access to some of the relevant documents was denied")
    read = read_prose(text, "How long is the return window?", "duration")
    assert read.answer.abstained and not read.unparseable
