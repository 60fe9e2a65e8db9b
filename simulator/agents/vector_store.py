"""Your vector store under layerrag's faults, for agents that search a store directly.

Tutorials and shipped agents rarely hold a retriever; they call
``vector_store.similarity_search(query, k=2)`` inside a tool, or ``as_retriever()`` in a
graph. :class:`FaultyVectorStore` wraps such a store so that those calls, unchanged, go
through the scenario's faults, the contract mode, the recording and the arm's policies:
each search asks the wrapped store (through its own ``as_retriever``) and hands what it
ranks to :class:`~simulator.agents.retriever.FaultyRetriever`, which serves it as the
scenario's search endpoint would. Documents are added to the wrapped store as usual.

:func:`corpus_store` is the one-line version, for a tutorial's "load the pages, split them,
embed them" step: the run's corpus as a vector store, under the faults. By default its
searches are ranked by the run's own retriever (the one ``search_policies`` uses, so an
agent built on it compares with ``react`` on retrieval held equal); given an embedding, the
corpus (:func:`~simulator.agents.retriever.corpus_documents`) is embedded into an
``InMemoryVectorStore`` that ranks instead::

    vector_store = corpus_store(tools)   # for InMemoryVectorStore(embeddings) + add_documents
    retrieved_docs = vector_store.similarity_search(query, k=2)   # faulted, recorded

Searches with scores report the score the endpoint served; a maximal-marginal-relevance
search is served as a similarity search of the same ``k`` (the endpoint ranks; it does not
diversify). A metadata ``filter`` and other search keywords are passed to the wrapped
store's retriever (the run's own retriever takes none, and ignores them).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.tools import BaseTool
from langchain_core.vectorstores import InMemoryVectorStore, VectorStore

from simulator.agents.retriever import FaultyRetriever, corpus_documents
from simulator.errors import UsageError


class FaultyVectorStore(VectorStore):
    """``store``'s searches served through the scenario's search endpoint (module docstring)."""

    def __init__(self, store: VectorStore | None, tools: Sequence[BaseTool]) -> None:
        """``store`` None: the run's own retriever ranks, and nothing can be added."""
        self.store, self.tools = store, list(tools)
        self._retrievers: dict[str, FaultyRetriever] = {}

    @classmethod
    def around(cls, store: VectorStore, tools: Sequence[BaseTool]) -> FaultyVectorStore:
        """``store`` under the faults of the run ``tools`` were handed for."""
        return cls(store, tools)

    @property
    def embeddings(self) -> Embeddings | None:
        return self.store.embeddings if self.store is not None else None

    def add_texts(self, texts: Iterable[str], metadatas: list[dict[str, Any]] | None = None,
                  **kwargs: Any) -> list[str]:
        return self._own().add_texts(texts, metadatas, **kwargs)

    def add_documents(self, documents: list[Document], **kwargs: Any) -> list[str]:
        return self._own().add_documents(documents, **kwargs)

    def delete(self, ids: list[str] | None = None, **kwargs: Any) -> bool | None:
        return self._own().delete(ids, **kwargs)

    def similarity_search(self, query: str, k: int = 4, **kwargs: Any) -> list[Document]:
        return self._faulty(k, kwargs).invoke(query)

    async def asimilarity_search(self, query: str, k: int = 4, **kwargs: Any
                                 ) -> list[Document]:
        return await self._faulty(k, kwargs).ainvoke(query)

    def similarity_search_with_score(self, query: str, k: int = 4, **kwargs: Any
                                     ) -> list[tuple[Document, float]]:
        return [(d, float(d.metadata.get("score", 0.0)))
                for d in self.similarity_search(query, k, **kwargs)]

    def similarity_search_with_relevance_scores(self, query: str, k: int = 4, **kwargs: Any
                                                ) -> list[tuple[Document, float]]:
        kwargs.pop("score_threshold", None)
        return self.similarity_search_with_score(query, k, **kwargs)

    def max_marginal_relevance_search(self, query: str, k: int = 4, fetch_k: int = 20,
                                      lambda_mult: float = 0.5, **kwargs: Any
                                      ) -> list[Document]:
        return self.similarity_search(query, k, **kwargs)

    @classmethod
    def from_texts(cls, texts: list[str], embedding: Embeddings,
                   metadatas: list[dict[str, Any]] | None = None, **kwargs: Any
                   ) -> FaultyVectorStore:
        raise UsageError("FaultyVectorStore wraps a store: build yours, then "
                         "FaultyVectorStore.around(store, tools), or use corpus_store(tools)")

    def _own(self) -> VectorStore:
        if self.store is None:
            raise UsageError("corpus_store(tools) holds the run's corpus and takes no other "
                             "documents; pass an embedding to rank a store of your own")
        return self.store

    def _faulty(self, k: int, search_kwargs: dict[str, Any]) -> FaultyRetriever:
        """One faulted retriever per distinct search, so each keeps its ranking cache."""
        key = repr(sorted({"k": k, **search_kwargs}.items()))
        if key not in self._retrievers:
            if self.store is None:
                self._retrievers[key] = FaultyRetriever.builtin(self.tools, k)
            else:
                inner = self.store.as_retriever(search_kwargs={"k": k, **search_kwargs})
                self._retrievers[key] = FaultyRetriever.around(inner, self.tools)
        return self._retrievers[key]


def corpus_store(tools: Sequence[BaseTool], embedding: Embeddings | None = None
                 ) -> FaultyVectorStore:
    """The run's corpus as a vector store under the run's faults: ranked by the run's own
    retriever, or by ``embedding`` over an in-memory store of the corpus."""
    if embedding is None:
        return FaultyVectorStore(None, tools)
    store = InMemoryVectorStore.from_documents(corpus_documents(tools), embedding)
    return FaultyVectorStore.around(store, tools)
