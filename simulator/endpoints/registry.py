"""The live document registry: every document, its version history, and older snapshots.

A document-management system knows which documents are versions of one policy and which
version replaced which; every document publishes that itself (``policy_id``, ``supersedes``,
``superseded_by``, written by the generator), and the registry reads it from the documents
alone, never from the evaluator's labels. Nothing the registry hands out says which version
answers a question: ``superseded_by`` only names a newer document id.

A lineage is the set of documents sharing a ``policy_id``, joined with any document a
``supersedes`` / ``superseded_by`` link names; a document with neither is a lineage of one.
Its order (oldest first) follows the links; where they leave the order open (no links, or
links that do not form one chain) the effective year, then the doc id, decides.

A *snapshot* is the registry as an index saw it some versions ago: the newest versions are
absent, and the newest version the snapshot holds was the current one at the time.
"""

from __future__ import annotations

from collections.abc import Sequence

from simulator.corpus.model import Corpus, Document


class DocumentRegistry:
    """Documents by id and their version lineages (oldest first), from the documents."""

    def __init__(self, documents: Sequence[Document]) -> None:
        self.documents: tuple[Document, ...] = tuple(documents)
        self._by_id = {d.doc_id: d for d in self.documents}
        self._lineage_of: dict[str, tuple[str, ...]] = {}
        for members in _families(self.documents, self._by_id):
            ordered = self._ordered(members)
            for doc_id in ordered:
                self._lineage_of[doc_id] = ordered

    @classmethod
    def from_corpus(cls, corpus: Corpus) -> DocumentRegistry:
        return cls(corpus.documents)

    def _ordered(self, members: Sequence[str]) -> tuple[str, ...]:
        """``members`` oldest first: along the supersedes links when they form one chain."""
        inside = set(members)
        roots = [i for i in members if self._by_id[i].supersedes not in inside]
        if len(roots) == 1:
            chain, seen = [roots[0]], {roots[0]}
            while (nxt := self._by_id[chain[-1]].superseded_by) in inside and nxt not in seen:
                chain.append(nxt)
                seen.add(nxt)
            if len(chain) == len(members):
                return tuple(chain)
        return tuple(sorted(members, key=lambda i: (self._by_id[i].effective_year, i)))

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
        carries status ``current`` and no ``superseded_by`` (it was current then), older ones
        stay ``superseded``. Document ids, text and the other metadata are as published.
        Order follows the live registry.
        """
        if lag == 0:
            return self.documents
        kept: list[Document] = []
        for doc in self.documents:
            lineage = self.lineage(doc.doc_id)
            present = lineage[: max(len(lineage) - lag, 0)]
            if doc.doc_id not in present:
                continue
            newest = doc.doc_id == present[-1]
            then = {"status": "current" if newest else "superseded",
                    "superseded_by": None if newest else doc.superseded_by}
            changed = {k: v for k, v in then.items() if getattr(doc, k) != v}
            kept.append(doc.model_copy(update=changed) if changed else doc)
        return tuple(kept)


def _families(documents: Sequence[Document], by_id: dict[str, Document]) -> list[list[str]]:
    """Doc ids grouped into lineages: a shared ``policy_id`` or a published link."""
    parent: dict[str, str] = {d.doc_id: d.doc_id for d in documents}

    def root(i: str) -> str:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def join(a: str, b: str) -> None:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    first_of_policy: dict[str, str] = {}
    for doc in documents:
        if doc.policy_id is not None:
            join(doc.doc_id, first_of_policy.setdefault(doc.policy_id, doc.doc_id))
        for linked in (doc.supersedes, doc.superseded_by):
            if linked is not None and linked in by_id:
                join(doc.doc_id, linked)
    families: dict[str, list[str]] = {}
    for doc in documents:
        families.setdefault(root(doc.doc_id), []).append(doc.doc_id)
    return list(families.values())
