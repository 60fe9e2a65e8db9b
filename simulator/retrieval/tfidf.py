"""The registered TF-IDF retrievers: the reported one and its ablations.

| name                    | domain step                              | validity rerank |
|-------------------------|------------------------------------------|-----------------|
| ``tfidf``               | none                                     | no              |
| ``tfidf_validity``      | none                                     | yes             |
| ``tfidf_domain``        | cues inferred from the query text        | no              |
| ``tfidf_domain_validity`` (reported, top_k 3) | cues from the query text | yes            |
| ``task_domain_filter``  | keep only the task's LABELLED domain     | yes             |

The query-cue step multiplies the text score of documents whose metadata domain is the
inferred domain by ``domain_boost``; an unresolved query is ranked on text alone. It never
reads ``RetrievalContext.task_domain``. ``task_domain_filter`` is the paper's sensitivity
condition: it reads the task's label and drops every document of another domain, which is
why it resolves the cross-domain collision and collapses when domain metadata is corrupted.
See ``simulator.retrieval.ranking`` for the validity rerank.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from simulator.errors import UsageError
from simulator.retrieval.base import Hit, RetrievalContext, retrievers
from simulator.retrieval.index import DocumentIndex
from simulator.retrieval.ranking import domain_boosted, in_domain, index_columns, rank, to_hits

DomainStep = Literal["none", "query_cues", "task_label"]


class TfidfRetriever(BaseModel):
    """A TF-IDF retriever configured by its domain step and whether validity reranks."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    domain: DomainStep = "none"
    """``query_cues``: infer the domain from the query (``index.cues``); ``task_label``: filter
    on ``context.task_domain``, the task's label (sensitivity condition only)."""
    validity: bool = False
    """Rerank version families by status, then effective year."""
    domain_boost: float = Field(default=1.5, gt=1.0)
    """Factor on the text score of documents in the query-inferred domain."""

    @property
    def description(self) -> str:
        """One line saying what this configuration does (``layerrag list retrievers``)."""
        domain = {"none": "text score only",
                  "query_cues": f"domain cues from the query (x{self.domain_boost})",
                  "task_label": "only the task's LABELLED domain (sensitivity condition)"}
        rerank = "; validity rerank" if self.validity else ""
        return f"TF-IDF, {domain[self.domain]}{rerank}"

    def __call__(self, index: DocumentIndex, query: str, context: RetrievalContext,
                 top_k: int = 3) -> list[Hit]:
        if top_k < 1:
            raise UsageError(f"top_k must be at least 1, got {top_k}")
        positions, scores = self.ranking(index, query, context, limit=top_k)
        return to_hits(index, positions, scores, top_k)

    def ranking(self, index: DocumentIndex, query: str, context: RetrievalContext,
                limit: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Candidates' index positions and ranking scores, best first (``limit`` places
        are exact; without it, every candidate is ranked)."""
        columns = index_columns(index)
        scores = index.scores(query)
        candidates = None
        if self.domain == "query_cues" and index.cues is not None:
            inferred = index.cues.infer(query).domain
            scores = domain_boosted(scores, columns, inferred, self.domain_boost)
        elif self.domain == "task_label":
            if context.task_domain is None:
                raise UsageError("the task-label domain filter (task_domain_filter) needs "
                                 "the task's labelled domain in RetrievalContext.task_domain; "
                                 "it is a sensitivity condition, not a retriever for "
                                 "unlabelled queries")
            candidates = in_domain(columns, context.task_domain)
        return rank(scores, columns, validity=self.validity, candidates=candidates,
                    limit=limit)


TFIDF = retrievers.add("tfidf", TfidfRetriever())
TFIDF_VALIDITY = retrievers.add("tfidf_validity", TfidfRetriever(validity=True))
TFIDF_DOMAIN = retrievers.add("tfidf_domain", TfidfRetriever(domain="query_cues"))
TFIDF_DOMAIN_VALIDITY = retrievers.add(
    "tfidf_domain_validity", TfidfRetriever(domain="query_cues", validity=True))
TASK_DOMAIN_FILTER = retrievers.add(
    "task_domain_filter", TfidfRetriever(domain="task_label", validity=True))
