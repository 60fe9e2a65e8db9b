"""The deterministic reader: label-free extraction steered by validity metadata."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.answers.normalize import matches_any
from simulator.corpus import Corpus, build_corpus
from simulator.readers.base import Evidence, ReaderInput
from simulator.readers.deterministic import DeterministicReader


def _evidence(corpus: Corpus, doc_id: str) -> Evidence:
    d = corpus.document(doc_id)
    return Evidence(doc_id=d.doc_id, title=d.title, text=d.text, status=d.status,
                    effective_year=d.effective_year, version=d.version, domain=d.domain)


NATURAL = Path(__file__).resolve().parents[2] / "examples" / "corpus_natural"


@pytest.mark.parametrize("spec", [None, NATURAL], ids=["enterprise_v2", "corpus_natural"])
def test_prefers_the_current_twin_whatever_the_order(spec: Path | None) -> None:
    corpus = build_corpus(spec)
    reader = DeterministicReader()
    for task, labels in zip(corpus.tasks, corpus.labels, strict=True):
        old = _evidence(corpus, labels.superseded_doc_ids[0])
        cur = _evidence(corpus, labels.required_doc_ids[0])
        result = reader.read(ReaderInput(question=task.question,
                                         answer_format=task.answer_format, evidence=(old, cur)))
        assert matches_any(result.answer.answer, labels.accepted_answers,
                           labels.answer_format), labels.unit_id
        assert result.answer.citations == (cur.doc_id,)


def test_trusts_metadata_so_a_superseded_doc_marked_current_wins(corpus: Corpus) -> None:
    task, labels = corpus.tasks[0], corpus.labels[0]
    old = _evidence(corpus, labels.superseded_doc_ids[0]).model_copy(
        update={"status": "current", "effective_year": 2099})
    cur = _evidence(corpus, labels.required_doc_ids[0])
    result = DeterministicReader().read(ReaderInput(
        question=task.question, answer_format=task.answer_format, evidence=(cur, old)))
    assert matches_any(result.answer.answer, labels.superseded_answers)


def test_no_evidence_is_a_structured_non_answer() -> None:
    result = DeterministicReader().read(ReaderInput(question="How long?",
                                                    answer_format="duration", evidence=()))
    assert result.answer.abstained and result.answer.answer is None and result.answer.reason


def test_equal_inputs_hash_equal_and_any_change_changes_the_hash(corpus: Corpus) -> None:
    item = ReaderInput(question="q?", answer_format="count", evidence=())
    assert item.prompt_hash("t1") == ReaderInput(question="q?", answer_format="count",
                                                 evidence=()).prompt_hash("t1")
    assert item.prompt_hash("t1") != item.prompt_hash("t2")
    assert item.prompt_hash("t1") != item.model_copy(update={"question": "r?"}).prompt_hash("t1")
