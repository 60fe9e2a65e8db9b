"""What an agent observed from one search call, after the contract step.

The paper's pipeline (``steps.contract``) and a tool-calling agent's recording middleware
(``simulator.agents.harness``) turn a contract-checked tool output into the same three
things: the call's trace (what the scorer reads: validity, documents, session, snapshot,
partial, denial), the evidence a reader sees, and the notes attached to it. Doing it in one
function is what makes "the same scorer" true for both kinds of agent.
"""

from __future__ import annotations

from typing import NamedTuple

from middleware.contract import ContractResult
from simulator.agent.trace import ToolCallTrace
from simulator.endpoints.payload import SearchPayload
from simulator.readers.base import Evidence

SEARCH_TOOL = "search_policies"


class Observation(NamedTuple):
    trace: ToolCallTrace
    payload: SearchPayload | None
    evidence: tuple[Evidence, ...]
    notes: tuple[str, ...]


def evidence_of(payload: SearchPayload | None) -> tuple[Evidence, ...]:
    """The hits of a valid payload as a reader sees them: prose plus allowlisted metadata."""
    if payload is None:
        return ()
    return tuple(
        Evidence(doc_id=h.doc_id, title=h.title, text=h.text, status=h.metadata.status,
                 effective_year=h.metadata.effective_year, version=h.metadata.version,
                 domain=h.metadata.domain)
        for h in payload.hits)


def observe(result: ContractResult, attempt: int) -> Observation:
    """The observation of search call number ``attempt`` (0-based) whose contract step gave
    ``result``."""
    payload = result.payload
    hits = payload.hits if payload is not None else ()
    trace = ToolCallTrace(
        tool=SEARCH_TOOL, attempt=attempt, status=result.status, valid=result.valid,
        repairs=tuple(result.repairs), errors=tuple(result.errors),
        doc_ids=tuple(h.doc_id for h in hits),
        session_id=payload.session_id if payload is not None else None,
        snapshot_id=payload.index.snapshot_id if payload is not None else None,
        partial=payload.partial if payload is not None else False,
        missing_shards=tuple(payload.missing_shards) if payload is not None else (),
        access_denied=payload.access.denied if payload is not None else False,
    )
    notes = tuple(payload.notes) if payload is not None else ()
    return Observation(trace=trace, payload=payload, evidence=evidence_of(payload), notes=notes)
