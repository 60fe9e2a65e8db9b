"""Generation is deterministic and labels stay evaluator-only."""

from __future__ import annotations

import hashlib

from simulator.cases import (
    Case,
    CaseCorpus,
    Turn,
    generate_case_corpus,
    load_case_spec,
)


def _digest(corpus: CaseCorpus) -> str:
    return hashlib.sha256(corpus.model_dump_json().encode()).hexdigest()


def test_same_spec_and_seed_give_an_identical_corpus() -> None:
    spec = load_case_spec()
    first, second = generate_case_corpus(spec, 0), generate_case_corpus(load_case_spec(), 0)
    assert first is not second
    assert _digest(first) == _digest(second)
    assert first.corpus_hash == second.corpus_hash


def test_another_seed_changes_the_opaque_ids_and_nothing_else() -> None:
    """The generator randomises only ids (hashes of seed, corpus, case, role): messages,
    documents' text and every label value stay as written."""
    spec = load_case_spec()
    zero, one = generate_case_corpus(spec, 0), generate_case_corpus(spec, 1)
    assert _digest(zero) != _digest(one) and zero.corpus_hash != one.corpus_hash
    assert not {c.case_id for c in zero.cases} & {c.case_id for c in one.cases}
    assert not {t.turn_id for c in zero.cases for t in c.turns} & {
        t.turn_id for c in one.cases for t in c.turns}
    assert not {d.doc_id for d in zero.documents} & {d.doc_id for d in one.documents}
    assert [t.message for c in zero.cases for t in c.turns] == [
        t.message for c in one.cases for t in c.turns]
    assert sorted(d.text for d in zero.documents) == sorted(d.text for d in one.documents)
    assert [(t.expected_answer, t.superseded_answers) for c in zero.labels for t in c.turns] == [
        (t.expected_answer, t.superseded_answers) for c in one.labels for t in c.turns]


LABEL_FIELDS = {"kind", "answer_type", "expected_answer", "accepted_answers",
                "superseded_answers", "required_doc_ids", "superseded_doc_ids",
                "expected_identifiers", "expected_steps", "standalone_question", "missing",
                "issue", "identifiers", "workflow", "case_key", "domain", "access_group"}


def test_agent_facing_case_and_turn_carry_no_label_field() -> None:
    assert set(Turn.model_fields) == {"turn_id", "position", "message", "answer_format"}
    assert not LABEL_FIELDS & set(Turn.model_fields)
    assert not LABEL_FIELDS & set(Case.model_fields)


def test_published_corpus_and_its_single_turn_view_hold_no_label() -> None:
    corpus = generate_case_corpus(load_case_spec(), 0)
    assert corpus.published().labels == ()
    assert corpus.as_corpus().labels == ()
    dumped = corpus.published().model_dump_json()
    for case in corpus.labels:
        assert case.case_key not in dumped  # the spec's ITC-01 etc. never leak
        assert case.issue not in dumped
        for turn in case.turns:
            if turn.kind == "follow_up":
                assert turn.standalone_question not in dumped, turn.standalone_question


def test_opaque_ids_reveal_no_case_key_or_kind() -> None:
    corpus = generate_case_corpus(load_case_spec(), 0)
    for case, labels in zip(corpus.cases, corpus.labels, strict=True):
        ids = [case.case_id, case.session.session_id, *(t.turn_id for t in case.turns)]
        for value in ids:
            assert labels.case_key.lower() not in value.lower()
            assert not any(k in value for k in ("answerable", "follow", "under", "unanswer"))


def test_strict_labels_cover_every_valued_turn_with_current_documents() -> None:
    corpus = generate_case_corpus(load_case_spec(), 0)
    valued = [t for c in corpus.labels for t in c.turns if t.expected_answer is not None]
    strict = corpus.strict_labels()
    assert len(strict) == len(valued) > 48
    by_id = {d.doc_id: d for d in corpus.documents}
    for label in strict:
        assert all(by_id[d].status == "current" for d in label.required_doc_ids)
        assert all(by_id[d].status == "superseded" for d in label.superseded_doc_ids)
