"""The retriever interface: (index, query, caller context, top_k) -> ranked hits.

Retrievers are pure functions of the index they are handed. The harness hands them a clean,
stale or corrupted index; they never reach for the corpus themselves.
"""

from __future__ import annotations

from typing import Protocol

from pydantic import BaseModel, ConfigDict

from simulator.corpus.model import SessionContext
from simulator.registry import Registry
from simulator.retrieval.index import DocumentIndex
from simulator.vocabulary import DEFAULT_RETRIEVER, DEFAULT_TOP_K


class Hit(BaseModel):
    """One ranked result: a document of the searched index and its score."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    doc_id: str
    score: float
    rank: int
    """0-based rank after every rerank step."""


class RetrievalContext(BaseModel):
    """What a retriever may know about the caller."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    session: SessionContext | None = None
    task_domain: str | None = None
    """The task's LABELLED domain. Only the ``task_domain_filter`` sensitivity condition
    reads it; every reported retriever ignores it."""


class Retriever(Protocol):
    def __call__(self, index: DocumentIndex, query: str, context: RetrievalContext,
                 top_k: int = 3) -> list[Hit]: ...


retrievers: Registry[Retriever] = Registry("retriever")

__all__ = ["DEFAULT_RETRIEVER", "DEFAULT_TOP_K", "Hit", "RetrievalContext", "Retriever",
           "retrievers"]
