"""Vectorized ranking steps shared by the TF-IDF retrievers: domain boost, validity rerank, top-k.

Every step works on numpy arrays over the documents of the index it is handed, so one query
costs a sparse product and a few sorts, never a Python loop over documents. The per-index
metadata columns are computed once per index object and cached weakly: an index whose
metadata was swapped (``with_metadata``) is another object and gets its own columns.

The validity rerank groups *version families*: documents of the index that share a title
(the generator gives both versions of a policy unit the unit's title; titles are text, which
corrupted metadata leaves alone). Within a family the ranking slots the family earned by its
text scores are handed out again in validity order: status ``current`` before
``superseded``, then the newer effective year, then the better text score. Documents of other
families never move, so validity can reorder near-equal twins but never lift an unrelated
current document above a better-matching one, and a superseded document stays retrievable
in the slot its current twin would have had.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass

import numpy as np

from simulator.retrieval.base import Hit
from simulator.retrieval.index import DocumentIndex

_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class IndexColumns:
    """Metadata of one index as arrays in index order."""

    documents: tuple[object, ...]
    """The ``index.documents`` tuple these columns were computed from (identity check)."""
    family: np.ndarray
    """Version-family id per document (documents sharing a normalized title)."""
    current: np.ndarray
    """1 where status is ``current``, else 0."""
    year: np.ndarray
    domain: np.ndarray
    """Domain code per document; ``domain_codes`` maps names to codes."""
    domain_codes: dict[str, int]


_cache: weakref.WeakKeyDictionary[DocumentIndex, IndexColumns] = weakref.WeakKeyDictionary()


def index_columns(index: DocumentIndex) -> IndexColumns:
    """The cached metadata columns of ``index`` (recomputed if its documents were replaced)."""
    cached = _cache.get(index)
    if cached is not None and cached.documents is index.documents:
        return cached
    docs = index.documents
    families: dict[str, int] = {}
    domains: dict[str, int] = {}
    columns = IndexColumns(
        documents=docs,
        family=np.array([families.setdefault(_SPACE.sub(" ", d.title).strip().casefold(),
                                             len(families)) for d in docs], dtype=np.int64),
        current=np.array([d.status == "current" for d in docs], dtype=np.int64),
        year=np.array([d.effective_year for d in docs], dtype=np.int64),
        domain=np.array([domains.setdefault(d.domain, len(domains)) for d in docs],
                        dtype=np.int64),
        domain_codes=domains,
    )
    _cache[index] = columns
    return columns


def domain_boosted(scores: np.ndarray, columns: IndexColumns, domain: str | None,
                   boost: float) -> np.ndarray:
    """Scores with documents whose metadata domain is ``domain`` multiplied by ``boost``."""
    code = columns.domain_codes.get(domain) if domain is not None else None
    if code is None:
        return scores
    return np.where(columns.domain == code, scores * boost, scores)


def in_domain(columns: IndexColumns, domain: str) -> np.ndarray:
    """Positions of the documents whose metadata domain is ``domain``."""
    code = columns.domain_codes.get(domain)
    if code is None:
        return np.empty(0, dtype=np.int64)
    return np.flatnonzero(columns.domain == code)


def rank(scores: np.ndarray, columns: IndexColumns, *, validity: bool,
         candidates: np.ndarray | None = None,
         limit: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Rank candidate documents; returns (positions in rank order, their ranking scores).

    ``scores`` covers the whole index; ``candidates`` (positions) restricts the ranking, all
    documents by default. Ties fall to the more valid family member, then to index order.
    With ``limit``, only the first ``limit`` places are promised (the rest may be cut).
    """
    pos = np.arange(len(scores)) if candidates is None else candidates
    if limit is not None and limit < len(pos):
        pos = _contenders(scores, columns, pos, limit, validity)
    text = scores[pos]
    if not validity:
        order = np.lexsort((pos, -text))
        return pos[order], text[order]
    family = columns.family[pos]
    by_validity = np.lexsort((pos, -text, -columns.year[pos], -columns.current[pos], family))
    by_score = np.lexsort((pos, -text, family))
    slot_score = np.empty_like(text)
    slot_score[by_validity] = text[by_score]  # the family's best slot goes to its most valid
    member_rank = np.empty(len(pos), dtype=np.int64)
    member_rank[by_validity] = _rank_within_groups(family[by_validity])
    order = np.lexsort((pos, member_rank, -slot_score))
    return pos[order], slot_score[order]


def _contenders(scores: np.ndarray, columns: IndexColumns, pos: np.ndarray, limit: int,
                validity: bool) -> np.ndarray:
    """The candidates that can reach the first ``limit`` places, in their original order.

    The first ``limit`` ranking scores are the ``limit`` largest text scores whatever the
    rerank (validity only permutes scores within a family), so every document placed there
    scores at least the ``limit``-th largest text score, or belongs to a family that has such
    a member. Sorting only those keeps the query cost linear in the index size.
    """
    text = scores[pos]
    # Partition the negated scores: numpy's introselect is slow to find an element near the
    # top end of an array whose low end is a long run of equal zeros.
    threshold = -np.partition(-text, limit - 1)[limit - 1]
    reach = text >= threshold
    if validity:
        families = np.zeros(int(columns.family.max()) + 1, dtype=bool)
        families[columns.family[pos[reach]]] = True
        reach = families[columns.family[pos]]
    return pos[reach]


def _rank_within_groups(sorted_groups: np.ndarray) -> np.ndarray:
    """0, 1, 2... restarting at every change of value in an already grouped array."""
    n = len(sorted_groups)
    steps = np.arange(n)
    starts = np.ones(n, dtype=bool)
    starts[1:] = sorted_groups[1:] != sorted_groups[:-1]
    return steps - np.maximum.accumulate(np.where(starts, steps, 0))


def to_hits(index: DocumentIndex, positions: np.ndarray, scores: np.ndarray,
            top_k: int) -> list[Hit]:
    """The first ``top_k`` ranked documents as hits with 0-based ranks."""
    return [Hit(doc_id=index.documents[p].doc_id, score=float(s), rank=r)
            for r, (p, s) in enumerate(zip(positions[:top_k], scores[:top_k], strict=True))]
