"""schema_drift (contract): the endpoint answers in schema v3 while the caller expects v2.

Mechanic: a newer service version renamed and re-typed its payload. Every piece of evidence
is still there, in another shape::

    v2                                  v3
    schema_version "2"                  schema_version "3"
    query, session_id, tenant           request: {query, session, tenant}
    hits[]                              results[]
      doc_id, text, score, rank           id, body, relevance, position
      metadata.domain                     attributes.domain
      metadata.status                     attributes.lifecycle.state
      metadata.effective_year (int)       attributes.lifecycle.effective_year (str)
      metadata.version                    attributes.lifecycle.version
      metadata.access_group, .tenant      attributes.acl.group, .tenant
    index.snapshot_id, built_year (int) index.snapshot, built_year (str)
    partial, missing_shards             completeness: {partial, missing_shards}
    access.withheld_count               access.withheld

Strict mode rejects it; bounded repair (``middleware.contract.repair``) maps it back. The
drift is a pure function of the payload: no draw, so it is trivially deterministic.
"""

from __future__ import annotations

from typing import Any

from middleware.faults.base import fault
from middleware.types import FaultContext, FaultSteps, ToolCall, ToolResult

DRIFTED_VERSION = "3"


def _year(value: Any) -> Any:
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


def drift_hit(hit: dict[str, Any]) -> dict[str, Any]:
    meta = hit.get("metadata", {})
    return {
        "id": hit.get("doc_id"), "title": hit.get("title"), "body": hit.get("text"),
        "relevance": hit.get("score"), "position": hit.get("rank"),
        "attributes": {
            "domain": meta.get("domain"),
            "lifecycle": {"state": meta.get("status"),
                          "effective_year": _year(meta.get("effective_year")),
                          "version": meta.get("version")},
            "acl": {"group": meta.get("access_group"), "tenant": meta.get("tenant")},
        },
    }


def drift_payload(payload: dict[str, Any]) -> dict[str, Any]:
    """The v3 rendering of a v2 search payload (fields it lacks stay absent)."""
    if "hits" not in payload:
        return dict(payload)
    index = payload.get("index", {})
    access = payload.get("access", {})
    return {
        "schema_version": DRIFTED_VERSION,
        "request": {"query": payload.get("query"), "session": payload.get("session_id"),
                    "tenant": payload.get("tenant")},
        "results": [drift_hit(h) for h in payload["hits"]],
        "index": {"snapshot": index.get("snapshot_id"),
                  "built_year": _year(index.get("built_year")),
                  "document_count": index.get("document_count")},
        "completeness": {"partial": payload.get("partial", False),
                         "missing_shards": list(payload.get("missing_shards", []))},
        "access": {"denied": access.get("denied", False),
                   "withheld": access.get("withheld_count", 0),
                   "reason": access.get("reason")},
        "notes": list(payload.get("notes", [])),
    }


@fault(layer="contract")
def schema_drift() -> FaultSteps:
    """Rename and re-type the payload (schema v2 -> v3); the evidence stays intact."""

    def response(call: ToolCall, result: ToolResult, ctx: FaultContext) -> ToolResult:
        if not isinstance(result, dict) or result.get("schema_version") != "2":
            return result
        return drift_payload(result)

    return FaultSteps(response=response)
