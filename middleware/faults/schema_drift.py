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

Any other JSON a tool of your own returns (mapped to a role with
``FaultInjectionMiddleware({"find_rules": "search_policies"})``) gets the *generic drift*
(:func:`drift_any`): keys renamed by the same table where they match (``doc_id``→``id``,
``text`` / ``content`` / ``page_content``→``body``, ``score``→``relevance``,
``rank``→``position``, ``metadata``→``attributes``, ``hits`` / ``documents`` /
``docs``→``results``) and from snake_case to camelCase otherwise, integer years as strings,
and the whole nested under ``data`` beside a changed ``schema_version`` (the payload's own
``schema_version`` or ``version`` plus one, else ``"2"``). It always changes the payload;
output that is not JSON cannot be drifted and is refused
(:class:`~middleware.types.FaultCannotAct`), never passed through as if drifted. layerrag's
own ``fetch_document`` record (schema v1) is the one JSON left as it is: the contract covers
search payloads.
"""

from __future__ import annotations

from typing import Any

from middleware.faults.base import fault
from middleware.types import FaultCannotAct, FaultContext, FaultSteps, ToolCall, ToolResult

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


_RENAMED = {"doc_id": "id", "text": "body", "content": "body", "page_content": "body",
            "score": "relevance", "rank": "position", "metadata": "attributes",
            "hits": "results", "documents": "results", "docs": "results"}
_VERSION_KEYS = ("schema_version", "version")


def _renamed(key: str) -> str:
    if key in _RENAMED:
        return _RENAMED[key]
    head, *rest = key.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _drift_value(value: Any, key: str = "") -> Any:
    if isinstance(value, dict):
        return {_renamed(str(k)): _drift_value(v, str(k)) for k, v in value.items()}
    if isinstance(value, list):
        return [_drift_value(v, key) for v in value]
    return _year(value) if key.endswith("year") else value


def _next_version(payload: Any) -> str:
    if isinstance(payload, dict):
        for key in _VERSION_KEYS:
            stated = str(payload.get(key, ""))
            if stated.isdigit():
                return str(int(stated) + 1)
    return "2"


def drift_any(payload: Any) -> dict[str, Any]:
    """The generic drift of any JSON value (module docstring): renamed, re-typed and
    nested under ``data`` beside a changed ``schema_version``."""
    if isinstance(payload, dict):
        body: Any = {k: v for k, v in payload.items() if k not in _VERSION_KEYS}
    elif isinstance(payload, list):
        body = payload
    else:
        raise FaultCannotAct(f"fault 'schema_drift' cannot act on a tool output that is not "
                          f"JSON ({type(payload).__name__})")
    return {"schema_version": _next_version(payload), "data": _drift_value(body)}


def _is_fetch_record(result: Any) -> bool:
    """layerrag's own fetch_document record (simulator/endpoints/document_payload.py)."""
    return isinstance(result, dict) and result.get("schema_version") == "1" \
        and {"doc_id", "found"} <= set(result)


@fault(layer="contract")
def schema_drift() -> FaultSteps:
    """Rename and re-type the payload (schema v2 -> v3; generic drift for any other JSON);
    the evidence stays intact."""

    def response(call: ToolCall, result: ToolResult, ctx: FaultContext) -> ToolResult:
        if isinstance(result, dict) and result.get("schema_version") == "2":
            return drift_payload(result)
        if result is None or _is_fetch_record(result):
            return result  # nothing came back (missing output's job), or the registry record
        return drift_any(result)

    return FaultSteps(response=response)
