"""The designated incorrect value and the edited assertion (RAG-Stress): same format, never
an accepted or superseded answer, deterministic, placed where the position says."""

from __future__ import annotations

import pytest

from simulator.answers.extract import sentences
from simulator.answers.foil import (
    POSITIONS,
    designated_incorrect,
    edited_text,
    foil_key,
)
from simulator.answers.formats import value_matches_format
from simulator.answers.normalize import matches_any, normalize_answer
from simulator.corpus import Corpus


def _foil(labels, seed: int = 0) -> str | None:  # type: ignore[no-untyped-def]
    return designated_incorrect(foil_key(seed, labels.task_id), labels.answer_format,
                                labels.accepted_answers, labels.superseded_answers)


@pytest.mark.parametrize("seed", [0, 1, 7])
def test_no_designated_value_is_an_accepted_or_superseded_answer(corpus: Corpus,
                                                                 seed: int) -> None:
    for labels in corpus.labels:
        foil = _foil(labels, seed)
        if foil is None:
            continue
        taken = (*labels.accepted_answers, *labels.superseded_answers)
        assert not matches_any(foil, taken, labels.answer_format), (labels.task_id, foil)
        assert value_matches_format(foil, labels.answer_format), (labels.task_id, foil)


def test_only_yes_no_tasks_with_both_polarities_taken_have_no_designated_value(
        corpus: Corpus) -> None:
    for labels in corpus.labels:
        both = {normalize_answer(a, "yes_no") for a in
                (*labels.accepted_answers, *labels.superseded_answers)} >= {"yes", "no"}
        assert (_foil(labels) is None) == (labels.answer_format == "yes_no" and both)


def test_the_designated_value_is_fixed_by_seed_and_task(corpus: Corpus) -> None:
    first = [_foil(lab) for lab in corpus.labels]
    assert first == [_foil(lab) for lab in corpus.labels]
    assert first != [_foil(lab, seed=1) for lab in corpus.labels]


@pytest.mark.parametrize("position", POSITIONS)
def test_every_edited_document_asserts_the_foil_and_no_accepted_value(
        corpus: Corpus, position: str) -> None:
    for labels in corpus.labels:
        foil = _foil(labels)
        if foil is None:
            continue
        text = corpus.document(labels.required_doc_ids[0]).text
        edited = edited_text(text, labels.answer_format, labels.accepted_answers, foil,
                             position)  # type: ignore[arg-type]
        assert edited is not None and foil in edited, labels.task_id
        assert not any(matches_any(s, labels.accepted_answers, labels.answer_format)
                       for s in sentences(edited)), labels.task_id
        assert edited != text


def test_the_span_moves_from_beginning_through_middle_to_end(corpus: Corpus) -> None:
    for labels in corpus.labels[::3]:
        foil = _foil(labels)
        if foil is None:
            continue
        text = corpus.document(labels.required_doc_ids[0]).text
        at = {p: edited_text(text, labels.answer_format, labels.accepted_answers, foil, p)
              for p in POSITIONS}
        assertion = sentences(at["beginning"] or "")[0].rstrip(".")
        assert foil in assertion and sentences(at["end"] or "")[-1].startswith(assertion)
        where = {p: t.index(assertion) / len(t) for p, t in at.items() if t is not None}
        assert where["beginning"] == 0.0 < where["middle"] < where["end"], labels.unit_id
