"""conflicting_evidence (evidence): an older version of what was retrieved comes back beside
it, marked current, with a records notice contradicting one of the two.

Mechanic: the fault puts the endpoint in a state where the policy the retriever ranked first
has its older version(s) re-indexed from a second source (``EndpointConditions.
reindexed_lineage``): they come back right beside the top hit, marked current, so two
documents of one policy both claim to be in force with different values. The conflict is drawn
from the family of what the retriever actually returned (the registry's version lineage, which
the documents publish themselves: ``policy_id``, ``supersedes``, ``superseded_by``), never
aimed with the task's labels: where retrieval went to the wrong policy, the conflict is about
the wrong policy, and a retrieval failure of the clean scenario stays a failure. Only *older*
versions are surfaced, so the fault never supplies a current version the retriever missed, and
nothing is displaced: the scenario is no easier than clean.

A records notice is attached in ``notes``: drawn per (seed, task), it either claims the older
version is still the governing text or that it was withdrawn and the newest revision applies.
Effective years and versions stay intact: a reader that notices the conflict, says so, and
resolves it by validity (the newest effective year) answers correctly.
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


def _older_beside_top(hits: list[Any], ctx: FaultContext) -> dict[str, Any] | None:
    """The oldest re-indexed version of the top hit's policy among ``hits``, if any."""
    if not hits or not isinstance(hits[0], dict):
        return None
    top = str(hits[0].get("doc_id"))
    lineage = ctx.require_environment("conflicting_evidence").registry.lineage(top)
    older = set(lineage[:lineage.index(top)])
    return next((h for h in hits[1:] if isinstance(h, dict) and h.get("doc_id") in older),
                None)


@fault(layer="evidence")
def conflicting_evidence(notes: tuple[str, ...] = NOTE_KINDS) -> FaultSteps:
    """Re-index an older version of the top hit beside it, with a contradicting note."""
    kinds = check_choices("conflicting_evidence", "notes", notes, NOTE_KINDS)

    def request(call: ToolCall, ctx: FaultContext) -> ToolCall:
        return call.with_conditions(reindexed_lineage=True)

    def response(call: ToolCall, result: ToolResult, ctx: FaultContext) -> ToolResult:
        if not result or not isinstance(result.get("hits"), list):
            return result
        old = _older_beside_top(result["hits"], ctx)
        if old is None:
            return result
        kind = kinds[ctx.rng("conflicting_evidence", call, per_attempt=False)
                     .randrange(len(kinds))]
        return {**result, "notes": [*result.get("notes", []), _note(kind, old)]}

    return FaultSteps(request=request, response=response, needs_endpoint=True,
                      needs_environment=True)
