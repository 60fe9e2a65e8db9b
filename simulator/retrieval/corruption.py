"""Deterministic metadata corruption: the retrieval audit's and the middleware's shared fault.

``corrupt_metadata`` returns the same documents (same order, ids, titles, prose, version
labels, access groups, tenants) with some operational metadata made untrustworthy:

- ``status``: each document's status is drawn afresh, current or superseded with equal odds,
  keyed by (seed, doc id), so a document gets the same status whatever set it is part of.
- ``effective_year``: the years of the documents are shuffled among them, so a document
  labelled current can be older than its superseded twin. The multiset of years is kept:
  nothing looks out of range.
- ``domain``: a random derangement of the domains present (a permutation with no fixed
  point) is applied, so EVERY document carries a wrong domain, twins keep a shared one, and
  each domain still labels as many documents as before. A filter on the true domain then
  finds nothing relevant, which is the paper's collapse to zero.

Version labels are left intact on purpose: they are free text whose order a reader cannot
rely on across units, and leaving them shows that status and year are what was corrupted.
Everything is a pure function of (documents, seed, fields); nothing touches global state.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from typing import Any

from simulator.corpus.model import Document
from simulator.errors import UsageError

CORRUPTIBLE_FIELDS = ("status", "effective_year", "domain")
VALIDITY_FIELDS = ("status", "effective_year")
"""The fields of the ``corrupted_metadata`` audit condition."""
DOMAIN_FIELDS = ("domain",)
"""The field of the ``corrupted_domain_metadata`` audit condition."""


def corrupt_metadata(documents: Sequence[Document], *, seed: int,
                     fields: Collection[str] = CORRUPTIBLE_FIELDS) -> tuple[Document, ...]:
    """The documents with ``fields`` corrupted deterministically from ``seed``."""
    unknown = sorted(set(fields) - set(CORRUPTIBLE_FIELDS))
    if unknown:
        raise UsageError(f"cannot corrupt metadata field {unknown[0]!r}; corruptible fields: "
                         f"{', '.join(CORRUPTIBLE_FIELDS)}")
    docs = tuple(documents)
    if not docs:
        return docs
    updates: list[dict[str, Any]] = [{} for _ in docs]
    if "status" in fields:
        for update, doc in zip(updates, docs, strict=True):
            coin = random.Random(f"corrupt_metadata:{seed}:status:{doc.doc_id}").random()
            update["status"] = "current" if coin < 0.5 else "superseded"
    if "effective_year" in fields:
        years = [d.effective_year for d in docs]
        random.Random(f"corrupt_metadata:{seed}:effective_year").shuffle(years)
        for update, year in zip(updates, years, strict=True):
            update["effective_year"] = year
    if "domain" in fields:
        mapping = _domain_derangement(docs, seed)
        for update, doc in zip(updates, docs, strict=True):
            update["domain"] = mapping[doc.domain]
    return tuple(d.model_copy(update=u) if u else d for d, u in zip(docs, updates, strict=True))


def _domain_derangement(docs: Sequence[Document], seed: int) -> dict[str, str]:
    domains = sorted({d.domain for d in docs})
    if len(domains) < 2:
        raise UsageError("cannot corrupt domain metadata of documents from fewer than two "
                         f"domains (found {domains or 'none'}): no domain would be wrong")
    rng = random.Random(f"corrupt_metadata:{seed}:domain")
    shuffled = list(domains)
    while True:  # rejection sampling: uniform over derangements, ~e tries on average
        rng.shuffle(shuffled)
        if all(a != b for a, b in zip(domains, shuffled, strict=True)):
            return dict(zip(domains, shuffled, strict=True))
