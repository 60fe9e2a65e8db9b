"""permission_denied (authorization): the caller may not read the required documents.

Mechanic: this fault decides what the caller loses for this call: the access group of the
task's required documents (from its labels), or the ``groups`` given
(``EndpointConditions.revoked_groups``). With the task's group it also pins the required
documents among the hits (``pinned_doc_ids``), so the denial shows even when the retriever
would have ranked them lower. The endpoint's access filter
(:func:`simulator.endpoints.search.readable`) then trims every hit of a revoked group: it is
withheld, counted in ``access.withheld_count`` with ``access.denied`` set, and its text and
metadata never leave the endpoint. The registry endpoint (``fetch_document``) applies the
same filter. No contract mode un-denies; the safe outcome is an access-aware non-answer.
"""

from __future__ import annotations

from middleware.faults.base import fault
from middleware.types import FaultContext, FaultSteps, ToolCall
from simulator.errors import UsageError


@fault(layer="authorization")
def permission_denied(groups: tuple[str, ...] = ()) -> FaultSteps:
    """Revoke the required documents' access group from the caller."""
    fixed = (groups,) if isinstance(groups, str) else tuple(groups)
    if any(not isinstance(g, str) or not g for g in fixed):
        raise UsageError(f"fault 'permission_denied': groups must be non-empty names, "
                         f"got {groups!r}")

    def request(call: ToolCall, ctx: FaultContext) -> ToolCall:
        conditions = call.conditions
        revoked: tuple[str, ...]
        pinned: tuple[str, ...]
        if fixed:
            revoked, pinned = fixed, ()
        else:
            labels = ctx.require_labels("permission_denied")
            revoked, pinned = (labels.access_group,), labels.required_doc_ids
        return call.with_conditions(
            revoked_groups=tuple(dict.fromkeys((*conditions.revoked_groups, *revoked))),
            pinned_doc_ids=tuple(dict.fromkeys((*conditions.pinned_doc_ids, *pinned))))

    return FaultSteps(request=request, needs_endpoint=True,
                      tools=frozenset({"search_policies", "fetch_document"}))
