"""Read-only views of a gate's evidence state that several controls share.

The gate hands policies the contract-checked payloads and a ``fetch_document`` callable on
the live registry. These helpers give them typed access without each control re-parsing
the same dicts: a registry record is a :class:`DocumentPayload`, or None when the registry
cannot be consulted (no callable, unknown id, a denied or malformed record).
"""

from __future__ import annotations

from pydantic import ValidationError

from simulator.agent.gate import GateInput
from simulator.agent.trace import ToolCallTrace
from simulator.endpoints.document_payload import DocumentPayload
from simulator.endpoints.payload import SearchPayload


def last_call(state: GateInput) -> ToolCallTrace | None:
    """The tool call the gate is deciding on (the newest)."""
    return state.calls[-1] if state.calls else None


def last_payload(state: GateInput) -> SearchPayload | None:
    """The contract-checked payload of the newest call (None when it was rejected)."""
    payload = state.payloads[-1] if state.payloads else None
    return payload if isinstance(payload, SearchPayload) else None


def registry_record(state: GateInput, doc_id: str) -> DocumentPayload | None:
    """The live registry's record of ``doc_id``, or None when it cannot be read."""
    if state.fetch_document is None:
        return None
    raw = state.fetch_document(doc_id)
    if raw is None:
        return None
    try:
        record = DocumentPayload.model_validate(raw)
    except ValidationError:
        return None
    return record if record.found and not record.denied else None
