"""Embeddings an offline run can use: no model download, no key, no network.

A user's own retriever needs an embedding, and the ones tutorials use (``OpenAIEmbeddings``
and the like) call a provider. :class:`HashingEmbeddings` is scikit-learn's
``HashingVectorizer`` behind LangChain's ``Embeddings`` interface: word unigrams and
bigrams, English stop words dropped, l2-normalised, hashed into a fixed number of
dimensions. It needs no fitting, so the same text always maps to the same vector, and texts
that share words point the same way: a bag-of-words ranker, weaker than TF-IDF (no idf) and
than a learned embedding, honest about being so (docs/agents.md, "Your own retriever").
"""

from __future__ import annotations

from langchain_core.embeddings import Embeddings
from sklearn.feature_extraction.text import HashingVectorizer


class HashingEmbeddings(Embeddings):
    """Deterministic bag-of-words embeddings of ``n_features`` dimensions."""

    def __init__(self, n_features: int = 2**14) -> None:
        self.vectorizer = HashingVectorizer(n_features=n_features, ngram_range=(1, 2),
                                            stop_words="english", norm="l2")

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [row.toarray().ravel().tolist() for row in self.vectorizer.transform(texts)]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]
