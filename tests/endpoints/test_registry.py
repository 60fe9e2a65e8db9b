"""The live registry's version history and the snapshots an older index was built from."""

from __future__ import annotations

from simulator.corpus import Corpus
from simulator.endpoints import DocumentRegistry


def test_a_snapshot_one_version_behind_holds_the_then_current_versions(
        tiny_corpus: Corpus) -> None:
    registry = DocumentRegistry.from_corpus(tiny_corpus)
    snapshot = {d.doc_id: d for d in registry.snapshot(1)}
    for labels in tiny_corpus.labels:
        assert labels.required_doc_ids[0] not in snapshot
        old = snapshot[labels.superseded_doc_ids[0]]
        live = tiny_corpus.document(old.doc_id)
        assert old.status == "current" and old.superseded_by is None
        then = {"status", "superseded_by"}
        assert old.model_dump(exclude=then) == live.model_dump(exclude=then)


def test_a_snapshot_older_than_every_version_holds_nothing(tiny_corpus: Corpus) -> None:
    assert DocumentRegistry.from_corpus(tiny_corpus).snapshot(2) == ()


def test_lineages_run_oldest_to_newest(tiny_corpus: Corpus) -> None:
    registry = DocumentRegistry.from_corpus(tiny_corpus)
    labels = tiny_corpus.labels[0]
    old, new = labels.superseded_doc_ids[0], labels.required_doc_ids[0]
    assert registry.lineage(new) == (old, new)
    assert registry.superseded_by(old) == new and registry.superseded_by(new) is None


def test_the_lineage_comes_from_the_documents_not_the_labels(tiny_corpus: Corpus) -> None:
    """Scrambled labels leave the registry as it was: it reads the documents' own lineage."""
    labels = list(tiny_corpus.labels)
    scrambled = tiny_corpus.model_copy(update={"labels": tuple(
        lab.model_copy(update={"required_doc_ids": other.superseded_doc_ids,
                               "superseded_doc_ids": other.required_doc_ids})
        for lab, other in zip(labels, labels[1:] + labels[:1], strict=True))})
    ours, theirs = DocumentRegistry.from_corpus(tiny_corpus), \
        DocumentRegistry.from_corpus(scrambled)
    for doc in tiny_corpus.documents:
        assert ours.lineage(doc.doc_id) == theirs.lineage(doc.doc_id)
        assert ours.superseded_by(doc.doc_id) == doc.superseded_by


def test_links_order_a_lineage_and_years_break_what_links_leave_open() -> None:
    from simulator.corpus import Document

    def doc(i: str, year: int, **kw: str | None) -> Document:
        return Document(doc_id=i, title="t", text="x", domain="d", status="current",
                        effective_year=year, version="v", access_group="g", tenant="t", **kw)

    linked = DocumentRegistry([doc("b", 2020, supersedes="a"),
                               doc("a", 2024, superseded_by="b")])
    assert linked.lineage("a") == ("a", "b")  # the links win over the years
    by_year = DocumentRegistry([doc("y", 2024, policy_id="p"), doc("x", 2021, policy_id="p"),
                                doc("z", 2020)])
    assert by_year.lineage("y") == ("x", "y") and by_year.lineage("z") == ("z",)
