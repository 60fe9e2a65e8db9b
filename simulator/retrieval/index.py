"""A TF-IDF index over a fixed set of documents (title + prose), with their metadata.

Metadata can be swapped without refitting (corrupted-metadata conditions keep the text), and
a new index can be built from any document set (a stale snapshot is just an older set).
The index may also carry the corpus's domain cue words (``cues``): the query-side domain
heuristic needs them and the retriever protocol has no other place for corpus knowledge.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import numpy as np

from simulator.corpus.model import Corpus, Document
from simulator.retrieval.domain_cues import DomainCues

LIVE_SNAPSHOT = "live"
"""The snapshot id of the current index (a stale index has another)."""


class DocumentIndex:
    """Documents, their TF-IDF matrix, and a snapshot description."""

    def __init__(self, documents: Sequence[Document], *, snapshot_id: str = LIVE_SNAPSHOT,
                 built_year: int | None = None,
                 cues: DomainCues | Mapping[str, Sequence[str]] | None = None) -> None:
        self.documents: tuple[Document, ...] = tuple(documents)
        self.cues: DomainCues | None = DomainCues.of(cues) if cues is not None else None
        """Domain cue words of the corpus, or None: then the domain heuristic is unresolved
        for every query (the retrievers never guess cues from document metadata)."""
        self.snapshot_id = snapshot_id
        self.built_year = built_year if built_year is not None else max(
            (d.effective_year for d in self.documents), default=0)
        # Imported here, not at module level: scikit-learn takes ~1.3 s to import, and
        # commands that only name components (``layerrag list``, ``--help``, configuration
        # errors) reach this module through the fault registry without building an index.
        from sklearn.feature_extraction.text import TfidfVectorizer

        self._vectorizer = TfidfVectorizer(sublinear_tf=True, stop_words="english",
                                           ngram_range=(1, 2), min_df=1)
        texts = [f"{d.title}. {d.text}" for d in self.documents]
        self._matrix = self._vectorizer.fit_transform(texts)
        # Query-time fast path (see ``scores``): the weights ``transform`` computes for the
        # settings above (sublinear tf, idf, l2 norm), without its per-call validation,
        # which costs more than the product itself.
        self._analyze = self._vectorizer.build_analyzer()
        self._vocabulary: dict[str, int] = self._vectorizer.vocabulary_
        self._idf: np.ndarray = self._vectorizer.idf_
        self._by_term = self._matrix.tocsc()
        self._position = {d.doc_id: i for i, d in enumerate(self.documents)}

    @classmethod
    def from_corpus(cls, corpus: Corpus, documents: Sequence[Document] | None = None, *,
                    snapshot_id: str = LIVE_SNAPSHOT, built_year: int | None = None
                    ) -> DocumentIndex:
        """An index over ``documents`` (default: all of the corpus) carrying its cue words."""
        docs = corpus.documents if documents is None else documents
        return cls(docs, snapshot_id=snapshot_id, built_year=built_year, cues=corpus.cues)

    def scores(self, query: str) -> np.ndarray:
        """Cosine similarity of ``query`` to every document, in index order.

        Equal to ``matrix @ vectorizer.transform([query]).T``, computed directly: sublinear
        tf times idf over the query's in-vocabulary terms, l2-normalized, against only those
        terms' columns.
        """
        counts = Counter(t for t in self._analyze(query) if t in self._vocabulary)
        if not counts:
            return np.zeros(len(self.documents))
        columns = np.fromiter((self._vocabulary[t] for t in counts), dtype=np.int64,
                              count=len(counts))
        tf = np.fromiter(counts.values(), dtype=np.float64, count=len(counts))
        weights = (1.0 + np.log(tf)) * self._idf[columns]
        weights /= np.linalg.norm(weights)
        return np.asarray(self._by_term[:, columns] @ weights).ravel()

    def with_metadata(self, documents: Sequence[Document], *,
                      snapshot_id: str | None = None) -> DocumentIndex:
        """The same texts under other metadata, without refitting TF-IDF."""
        docs = tuple(documents)
        if [d.doc_id for d in docs] != [d.doc_id for d in self.documents]:
            raise ValueError("with_metadata needs the same documents in the same order")
        clone = object.__new__(DocumentIndex)
        clone.__dict__.update(self.__dict__)
        clone.documents = docs
        clone.snapshot_id = snapshot_id or self.snapshot_id
        return clone

    def position(self, doc_id: str) -> int:
        return self._position[doc_id]

    def __len__(self) -> int:
        return len(self.documents)
