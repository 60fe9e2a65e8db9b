"""The generated corpus: counts, determinism, opaque ids, and no label leakage."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from simulator.corpus import Corpus, build_corpus, generate_corpus, load_spec, write_corpus
from simulator.corpus.loader import bundled_spec_dir


def test_enterprise_v2_has_the_papers_counts(corpus: Corpus) -> None:
    assert len(corpus.domains) == 8
    assert len({lab.unit for lab in corpus.labels}) == 80
    assert len(corpus.documents) == 160
    assert Counter(d.status for d in corpus.documents) == {"current": 80, "superseded": 80}
    assert len(corpus.tasks) == 240
    assert [t.row for t in corpus.tasks] == list(range(240))
    assert Counter(lab.domain for lab in corpus.labels) == {d: 30 for d in corpus.domains}


def test_two_builds_are_byte_identical(tmp_path: Path) -> None:
    spec = load_spec()
    write_corpus(generate_corpus(spec, seed=7), tmp_path / "a")
    write_corpus(generate_corpus(spec, seed=7), tmp_path / "b")
    for name in ("documents.jsonl", "tasks.jsonl", "labels.jsonl", "manifest.json"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_another_seed_gives_other_ids() -> None:
    spec = load_spec()
    a, b = generate_corpus(spec, seed=0), generate_corpus(spec, seed=1)
    assert not {d.doc_id for d in a.documents} & {d.doc_id for d in b.documents}
    assert not {t.task_id for t in a.tasks} & {t.task_id for t in b.tasks}


def test_ids_are_opaque(corpus: Corpus) -> None:
    spec = load_spec()
    unit_ids = {u.id.lower() for d in spec.domains for u in d.units}
    for doc in corpus.documents:
        assert re.fullmatch(r"doc_[0-9a-f]{12}", doc.doc_id)
        assert doc.domain not in doc.doc_id and doc.status not in doc.doc_id
        assert not any(u in doc.doc_id for u in unit_ids)


def test_no_document_field_states_the_answer(corpus: Corpus) -> None:
    for labels in corpus.labels:
        current = corpus.document(labels.required_doc_ids[0])
        value = labels.expected_answer.lower()
        for name, field in current.model_dump().items():
            if name != "text":
                assert str(field).lower() != value, (labels.unit_id, name)
        assert value in current.text.lower(), labels.unit_id


def test_tasks_carry_no_labels(corpus: Corpus) -> None:
    for task, labels in zip(corpus.tasks, corpus.labels, strict=True):
        dumped = task.model_dump_json()
        assert labels.required_doc_ids[0] not in dumped
        assert labels.expected_answer.lower() not in task.question.lower()
        assert "unit" not in task.model_dump() and "domain" not in task.model_dump()


def test_a_question_collides_across_domains_with_different_answers(corpus: Corpus) -> None:
    by_question: dict[str, list[int]] = {}
    for task in corpus.tasks:
        by_question.setdefault(task.question, []).append(task.row)
    collisions = [rows for rows in by_question.values()
                  if len({corpus.labels[r].domain for r in rows}) > 1]
    assert collisions
    for rows in collisions:
        answers = {corpus.labels[r].expected_answer for r in rows}
        assert len(answers) == len(rows)


def test_query_realism_about_a_third_to_half_name_their_domain(corpus: Corpus) -> None:
    from simulator.answers.extract import content_words

    cued = 0
    for task, labels in zip(corpus.tasks, corpus.labels, strict=True):
        cues = {w for c in corpus.cues[labels.domain] for w in content_words(c)}
        cued += bool(content_words(task.question) & cues)
    assert 0.3 * 240 <= cued <= 0.5 * 240, cued


def test_bundled_spec_is_found() -> None:
    assert (bundled_spec_dir() / "corpus.toml").is_file()


def test_other_spec_folders_have_their_own_counts(tiny_corpus: Corpus) -> None:
    assert len(tiny_corpus.documents) == 8 and len(tiny_corpus.tasks) == 12
    assert build_corpus().corpus_hash != tiny_corpus.corpus_hash
