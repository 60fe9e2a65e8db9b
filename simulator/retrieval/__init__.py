"""Retrieval: the TF-IDF index, the registered retrievers and the audit.

Importing this package registers the retrievers ``tfidf``, ``tfidf_validity``,
``tfidf_domain``, ``tfidf_domain_validity`` (the reported default, top_k 3) and
``task_domain_filter`` (the label-reading sensitivity condition) in ``retrievers``.
"""

from simulator.retrieval.audit import (
    CONDITIONS,
    Collision,
    CollisionTask,
    Condition,
    CueCollision,
    CueTie,
    DomainHeuristicCounts,
    RecallCell,
    RetrieverAudit,
    audit_retrievers,
    condition_index,
    domain_heuristic_counts,
    prefers_current,
)
from simulator.retrieval.base import (
    DEFAULT_RETRIEVER,
    DEFAULT_TOP_K,
    Hit,
    RetrievalContext,
    Retriever,
    retrievers,
)
from simulator.retrieval.corruption import (
    CORRUPTIBLE_FIELDS,
    DOMAIN_FIELDS,
    VALIDITY_FIELDS,
    corrupt_metadata,
)
from simulator.retrieval.domain_cues import DomainCues, DomainInference, infer_domain
from simulator.retrieval.index import DocumentIndex
from simulator.retrieval.tfidf import TfidfRetriever


def get_retriever(name: str) -> Retriever:
    """Look up a registered retriever by name (UsageError with a suggestion if unknown)."""
    return retrievers.get(name)


__all__ = [
    "CONDITIONS", "CORRUPTIBLE_FIELDS", "Collision", "CollisionTask", "Condition",
    "CueCollision", "CueTie",
    "DEFAULT_RETRIEVER", "DEFAULT_TOP_K", "DOMAIN_FIELDS", "DocumentIndex", "DomainCues",
    "DomainHeuristicCounts", "DomainInference", "Hit", "RecallCell", "RetrievalContext",
    "Retriever", "RetrieverAudit", "TfidfRetriever", "VALIDITY_FIELDS", "audit_retrievers",
    "condition_index", "corrupt_metadata", "domain_heuristic_counts", "get_retriever",
    "infer_domain", "prefers_current", "retrievers",
]
