"""The live document registry: every document, its version history, and older snapshots.

A document-management system knows which documents are versions of one policy and which
version replaced which; the generator records that per policy unit (current and superseded
document ids), and the registry reads it from there once. Nothing the registry hands out
says which version answers a question: ``superseded_by`` only names a newer document id.

A *snapshot* is the registry as an index saw it some versions ago: the newest versions are
absent, and the newest version the snapshot holds was the current one at the time.
"""

from __future__ import annotations

from collections.abc import Sequence

from simulator.corpus.model import Corpus, Document


class DocumentRegistry:
    """Documents by id and their version lineages (oldest first)."""

    def __init__(self, documents: Sequence[Document],
                 lineages: Sequence[Sequence[str]] = ()) -> None:
        self.documents: tuple[Document, ...] = tuple(documents)
        self._by_id = {d.doc_id: d for d in self.documents}
        self._lineage_of: dict[str, tuple[str, ...]] = {}
        for lineage in lineages:
            ordered = tuple(sorted(dict.fromkeys(lineage),
                                   key=lambda i: (self._by_id[i].effective_year, i)))
            for doc_id in ordered:
                self._lineage_of[doc_id] = ordered

    @classmethod
    def from_corpus(cls, corpus: Corpus) -> DocumentRegistry:
        lineages = {lab.unit_id: (*lab.superseded_doc_ids, *lab.required_doc_ids)
                    for lab in corpus.labels}
        return cls(corpus.documents, list(lineages.values()))

    def get(self, doc_id: str) -> Document | None:
        return self._by_id.get(doc_id)

    def lineage(self, doc_id: str) -> tuple[str, ...]:
        """Every version of the policy ``doc_id`` belongs to, oldest first."""
        return self._lineage_of.get(doc_id, (doc_id,))

    def superseded_by(self, doc_id: str) -> str | None:
        """The next newer version of ``doc_id``, or None when it is the newest."""
        lineage = self.lineage(doc_id)
        at = lineage.index(doc_id)
        return lineage[at + 1] if at + 1 < len(lineage) else None

    def snapshot(self, lag: int) -> tuple[Document, ...]:
        """The documents an index built ``lag`` versions ago held, as it held them.

        Of every lineage the newest ``lag`` versions are dropped; the newest remaining one
        carries status ``current`` (it was current then), older ones stay ``superseded``.
        Document ids, text and the other metadata are as published. Order follows the
        live registry.
        """
        if lag == 0:
            return self.documents
        kept: list[Document] = []
        for doc in self.documents:
            lineage = self.lineage(doc.doc_id)
            present = lineage[: max(len(lineage) - lag, 0)]
            if doc.doc_id not in present:
                continue
            status = "current" if doc.doc_id == present[-1] else "superseded"
            kept.append(doc if doc.status == status else doc.model_copy(update={"status": status}))
        return tuple(kept)
