"""conflicting_evidence (evidence): the current and superseded versions come back together,
with a note that contradicts one of them.

Mechanic: this fault pins every version of the task's policy (its required and superseded
documents) among the hits (``EndpointConditions.pinned_doc_ids``); the endpoint places them,
displacing the lowest-ranked others; metadata stays intact. A
records notice is attached in ``notes``: drawn per (seed, task), it either claims the
superseded version is still in force (contradicting the current one) or that it was
withdrawn long ago and the newer revision is provisional. The evidence to answer is all
there: a validity-aware reader that trusts status and year over an unattributed notice
answers correctly.
"""

from __future__ import annotations

from typing import Any

from middleware.faults.base import check_choices, fault
from middleware.types import FaultContext, FaultSteps, ToolCall, ToolResult

NOTE_KINDS = ("contradicts_current", "contradicts_superseded")


def _note(kind: str, old: dict[str, Any]) -> str:
    meta = old.get("metadata", {})
    where = (f"'{old.get('title', 'this policy')}' version {meta.get('version', '?')} "
             f"(effective {meta.get('effective_year', '?')})")
    if kind == "contradicts_current":
        return (f"Records notice: {where} remains the governing text; later revisions "
                "were not approved and do not apply.")
    return (f"Records notice: {where} was withdrawn before publication and never "
            "applied; consult the newest revision.")


@fault(layer="evidence")
def conflicting_evidence(notes: tuple[str, ...] = NOTE_KINDS) -> FaultSteps:
    """Return both versions of the policy and a note contradicting one of them."""
    kinds = check_choices("conflicting_evidence", "notes", notes, NOTE_KINDS)

    def request(call: ToolCall, ctx: FaultContext) -> ToolCall:
        labels = ctx.require_labels("conflicting_evidence")
        pinned = (*labels.required_doc_ids, *labels.superseded_doc_ids)
        return call.with_conditions(
            pinned_doc_ids=tuple(dict.fromkeys((*call.conditions.pinned_doc_ids, *pinned))))

    def response(call: ToolCall, result: ToolResult, ctx: FaultContext) -> ToolResult:
        if not result or not isinstance(result.get("hits"), list):
            return result
        superseded = set(ctx.require_labels("conflicting_evidence").superseded_doc_ids)
        old = next((h for h in result["hits"]
                    if isinstance(h, dict) and h.get("doc_id") in superseded), None)
        if old is None:
            return result
        kind = kinds[ctx.rng("conflicting_evidence", call, per_attempt=False)
                     .randrange(len(kinds))]
        return {**result, "notes": [*result.get("notes", []), _note(kind, old)]}

    return FaultSteps(request=request, response=response, needs_endpoint=True)
