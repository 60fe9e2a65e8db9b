"""ConInstruct behaviour labels from an answer's disclosure and the evidence it was made from."""

from __future__ import annotations

import pytest

from simulator.answers.schema import AgentAnswer, ConflictDisclosure, unknown_answer
from simulator.readers.base import Evidence
from simulator.readers.conflict import find_conflict, versions_disagree
from simulator.scoring.behaviour import behaviour_label
from simulator.vocabulary import DISCLOSURE_CORRECT

Q = "How many days is the return window?"
NEW = Evidence(doc_id="d_new", title="Return window", text="Returns are accepted within 30 days.",
               status="current", effective_year=2024)
OLD = Evidence(doc_id="d_old", title="Return window", text="Returns are accepted within 14 days.",
               status="superseded", effective_year=2019)
OLD_AS_CURRENT = OLD.model_copy(update={"status": "current"})
NOTE = "Records notice: 'Return window' version 2019.1 remains the governing text."

SAID = ConflictDisclosure(noticed=True, resolution="resolved", note="two versions disagree")
ASKED = ConflictDisclosure(noticed=True, resolution="clarify", note="which applies?")
ANSWER = AgentAnswer(answer="30 days", citations=("d_new",))


def label(answer: AgentAnswer, *evidence: Evidence, notes: tuple[str, ...] = ()) -> str:
    return behaviour_label(answer, Q, "duration", evidence, notes)


def test_a_superseded_version_beside_the_current_one_is_version_history_not_a_conflict() -> None:
    assert find_conflict(Q, "duration", (NEW, OLD)) is None
    assert versions_disagree(Q, "duration", (NEW, OLD)) is not None  # the cautious reading


def test_two_in_force_versions_with_different_values_are_a_conflict() -> None:
    found = find_conflict(Q, "duration", (NEW, OLD_AS_CURRENT))
    assert found is not None and set(found.doc_ids) == {"d_new", "d_old"}


def test_a_note_naming_a_returned_document_is_a_conflict() -> None:
    assert find_conflict(Q, "duration", (NEW,), (NOTE,)) is not None
    assert find_conflict(Q, "duration", (NEW,), ("Records notice: 'Other' was withdrawn",)) \
        is None


@pytest.mark.parametrize(("answer", "expected"), [
    (ANSWER, "B1"),
    (unknown_answer("which applies?", ASKED), "B2"),
    (ANSWER.model_copy(update={"conflict": SAID}), "B3"),
    (unknown_answer("no value"), "B4"),
    (ANSWER.model_copy(update={"conflict": ConflictDisclosure(noticed=True)}), "B4"),
])
def test_labels_on_a_record_whose_evidence_holds_a_conflict(answer: AgentAnswer,
                                                             expected: str) -> None:
    assert label(answer, NEW, OLD_AS_CURRENT) == expected
    assert label(answer, NEW, notes=(NOTE,)) == expected


@pytest.mark.parametrize(("answer", "expected"), [
    (ANSWER, "B5"),
    (unknown_answer("no value"), "B5"),
    (unknown_answer("which applies?", ASKED), "B6"),
    (ANSWER.model_copy(update={"conflict": SAID}), "B6"),
])
def test_labels_on_a_conflict_free_record(answer: AgentAnswer, expected: str) -> None:
    assert label(answer, NEW, OLD) == expected


def test_disclosure_is_correct_for_b2_b3_and_b5_only() -> None:
    assert DISCLOSURE_CORRECT == {"B2", "B3", "B5"}


def test_an_answer_without_a_disclosure_field_claims_no_conflict() -> None:
    parsed = AgentAnswer.model_validate({"answer": "30 days", "citations": ["d_new"]})
    assert parsed.conflict.noticed is False and parsed.conflict.resolution == "none"
