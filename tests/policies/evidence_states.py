"""Hand-made evidence states for policy tests: a caller, hits, a payload, a registry.

Everything a policy decides on is built here explicitly, so each test reads as "given this
evidence state, the policy decides that". Defaults describe a clean, complete, valid result
for the caller's own session; keyword arguments change one thing at a time.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from simulator.agent.gate import GateInput
from simulator.agent.trace import ToolCallTrace
from simulator.corpus.model import SessionContext, Task
from simulator.endpoints.payload import SearchPayload
from simulator.readers.base import Evidence

SESSION = SessionContext(session_id="sess_caller", tenant="acme", user_id="u1",
                         access_groups=("staff",))
TASK = Task(task_id="task_1", row=0, question="How many days is the return window?",
            answer_format="duration", session=SESSION)


def hit(doc_id: str, *, rank: int = 0, title: str = "Return window", status: str = "current",
        year: int = 2025, version: str = "v2", domain: str = "returns",
        tenant: str = "acme", text: str | None = None) -> dict[str, Any]:
    return {"doc_id": doc_id, "title": title,
            "text": text or f"Customers may return items within {30 + rank} days.",
            "score": round(1.0 - rank / 10, 3), "rank": rank,
            "metadata": {"domain": domain, "status": status, "effective_year": year,
                         "version": version, "access_group": "staff", "tenant": tenant}}


def payload(hits: Sequence[dict[str, Any]], *, session_id: str = "sess_caller",
            tenant: str = "acme", partial: bool = False, missing_shards: Sequence[str] = (),
            denied: int = 0, snapshot: str = "live", built_year: int = 2025) -> SearchPayload:
    return SearchPayload.model_validate_json(json.dumps({
        "query": TASK.question, "session_id": session_id, "tenant": tenant, "hits": list(hits),
        "index": {"snapshot_id": snapshot, "built_year": built_year, "document_count": 10},
        "partial": partial, "missing_shards": list(missing_shards),
        "access": {"denied": denied > 0, "withheld_count": denied,
                   "reason": "withheld" if denied else None},
    }))


def record(doc_id: str, *, title: str = "Return window", status: str = "current",
           year: int = 2025, version: str = "v2", domain: str = "returns",
           superseded_by: str | None = None) -> dict[str, Any]:
    """A fetch_document payload (schema v1) for the fake registry."""
    return {"schema_version": "1", "doc_id": doc_id, "session_id": SESSION.session_id,
            "found": True, "title": title, "domain": domain, "status": status,
            "effective_year": year, "version": version, "access_group": "staff",
            "tenant": "acme", "superseded_by": superseded_by}


def as_evidence(body: SearchPayload) -> tuple[Evidence, ...]:
    return tuple(Evidence(doc_id=h.doc_id, title=h.title, text=h.text, status=h.metadata.status,
                          effective_year=h.metadata.effective_year, version=h.metadata.version,
                          domain=h.metadata.domain) for h in body.hits)


def trace_of(body: SearchPayload | None, *, attempt: int = 0, status: str = "ok",
             valid: bool = True) -> ToolCallTrace:
    if body is None:
        return ToolCallTrace(tool="search_policies", attempt=attempt, status=status,
                             valid=valid)
    return ToolCallTrace(tool="search_policies", attempt=attempt, status="ok", valid=True,
                         doc_ids=tuple(h.doc_id for h in body.hits), session_id=body.session_id,
                         snapshot_id=body.index.snapshot_id, partial=body.partial,
                         missing_shards=body.missing_shards, access_denied=body.access.denied)


def state(*bodies: SearchPayload | None, registry: Sequence[dict[str, Any]] | None = None,
          statuses: Sequence[str] | None = None) -> GateInput:
    """The gate's input after one call per body (None: a missing or invalid call).

    ``statuses`` gives the status of each None body ("missing" or "invalid").
    """
    statuses = list(statuses or ["missing"] * len(bodies))
    calls = []
    for attempt, body in enumerate(bodies):
        status = statuses[attempt] if body is None else "ok"
        calls.append(trace_of(body, attempt=attempt, status=status,
                              valid=body is not None))
    last = bodies[-1]
    known = {r["doc_id"]: r for r in registry} if registry is not None else None
    return GateInput(task=TASK, contract_mode="strict", calls=tuple(calls),
                     payloads=tuple(bodies),
                     evidence=as_evidence(last) if last is not None else (),
                     fetch_document=(known.get if known is not None else None))
