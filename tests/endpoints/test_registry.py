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
        assert old.status == "current"
        assert old.model_dump(exclude={"status"}) == live.model_dump(exclude={"status"})


def test_a_snapshot_older_than_every_version_holds_nothing(tiny_corpus: Corpus) -> None:
    assert DocumentRegistry.from_corpus(tiny_corpus).snapshot(2) == ()


def test_lineages_run_oldest_to_newest(tiny_corpus: Corpus) -> None:
    registry = DocumentRegistry.from_corpus(tiny_corpus)
    labels = tiny_corpus.labels[0]
    old, new = labels.superseded_doc_ids[0], labels.required_doc_ids[0]
    assert registry.lineage(new) == (old, new)
    assert registry.superseded_by(old) == new and registry.superseded_by(new) is None
