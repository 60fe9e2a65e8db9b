"""Assemble a schema-v2 search payload from ranked documents, the way the service would.

Order of operations, as in a sharded search service with access trimming:
1. the retriever ranks the index snapshot the endpoint is serving (top_k, plus pinned);
2. hits held by shards that did not answer are missing (the payload says which shards);
3. hits the caller may not read are withheld: counted, their text and metadata never leave.

Payloads are built as plain JSON-able dicts (tests validate every shape against
:class:`~simulator.endpoints.payload.SearchPayload`): tool output is JSON on the wire, and the
contract step is what turns it into a typed model.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from simulator.corpus.model import Document, SessionContext
from simulator.endpoints.payload import SCHEMA_VERSION
from simulator.endpoints.shards import shard_of

Ranked = tuple[tuple[str, float], ...]
"""(doc_id, score) pairs, best first."""


def pin(ranked: Ranked, full: Ranked, pinned: Sequence[str], top_k: int) -> Ranked:
    """The top ``top_k`` of ``ranked`` with every pinned document of ``full`` among them.

    Pinned documents that the top-k lacks displace the lowest-ranked unpinned hits; the
    result keeps ranking order (by score, then the original order).
    """
    wanted = [p for p in dict.fromkeys(pinned) if any(d == p for d, _ in full)]
    top = list(ranked[:top_k])
    missing = [p for p in wanted if all(d != p for d, _ in top)]
    if not missing:
        return tuple(top)
    keep = [h for h in top if h[0] in wanted]
    others = [h for h in top if h[0] not in wanted]
    room = max(top_k - len(keep) - len(missing), 0)
    chosen = {d for d, _ in (*keep, *others[:room])} | set(missing)
    return tuple(h for h in full if h[0] in chosen)


def render_hit(doc: Document, score: float, rank: int) -> dict[str, Any]:
    return {
        "doc_id": doc.doc_id, "title": doc.title, "text": doc.text,
        "score": round(float(score), 6), "rank": rank,
        "metadata": {"domain": doc.domain, "status": doc.status,
                     "effective_year": doc.effective_year, "version": doc.version,
                     "access_group": doc.access_group, "tenant": doc.tenant},
    }


def readable(doc: Document, session: SessionContext, revoked: Collection[str]) -> bool:
    """The access filter: may this caller read ``doc``?

    Same tenant, and one of the session's access groups that is not ``revoked`` for the call.
    """
    return (doc.tenant == session.tenant and doc.access_group in session.access_groups
            and doc.access_group not in revoked)


def assemble(*, query: str, session: SessionContext, ranked: Ranked,
             documents: dict[str, Document], snapshot: dict[str, Any], shards: int,
             down: Sequence[str], revoked: Collection[str]) -> dict[str, Any]:
    """The payload for ``ranked`` after shard loss and access trimming."""
    hits: list[dict[str, Any]] = []
    withheld = 0
    down_set = set(down)
    for rank, (doc_id, score) in enumerate(ranked):
        if down_set and shard_of(doc_id, shards) in down_set:
            continue
        doc = documents[doc_id]
        if not readable(doc, session, revoked):
            withheld += 1
            continue
        hits.append(render_hit(doc, score, rank))
    access: dict[str, Any] = {"denied": withheld > 0, "withheld_count": withheld,
                              "reason": None}
    if withheld:
        access["reason"] = (f"{withheld} result(s) withheld: the session's access groups "
                            "do not include the documents' access group")
    return {
        "schema_version": SCHEMA_VERSION, "query": query, "session_id": session.session_id,
        "tenant": session.tenant, "hits": hits, "index": dict(snapshot),
        "partial": bool(down), "missing_shards": list(down), "access": access, "notes": [],
    }
