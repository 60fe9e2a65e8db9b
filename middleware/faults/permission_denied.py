"""permission_denied (authorization): the caller may not read the policy its question is about.

Mechanic: this fault decides what the caller loses for this call, from what the retriever
returns and the documents' own metadata, never from labels:

- with ``groups`` given, those access groups;
- otherwise the access groups of the documents in force that the caller's question finds:
  the retriever's ranking for the record's question (``FaultContext.task``) asked by the
  caller (``env.results(question, caller, conditions)``, the primitive ``wrong_session``'s
  ``env.cached_results`` also uses), and of those hits every one the live registry holds as
  ``current`` (the documents' own published status) gives up its group; when none is current
  (a stale snapshot), the top-ranked hit's group. The same groups are revoked on every call of
  the record, a re-worded search and a ``fetch_document`` included: a permission belongs to the
  caller, not to one query. Without a task (a tool wrapped outside layerrag), a search ranks
  its own ``query`` and a fetch loses the group of the document it asks for.

The group goes into ``EndpointConditions.revoked_groups``; nothing is pinned. The endpoint's
access filter (:func:`simulator.endpoints.search.readable`) then trims every hit of a revoked
group: it is withheld, counted in ``access.withheld_count`` with ``access.denied`` set, and
its text and metadata never leave the endpoint. The registry endpoint (``fetch_document``)
applies the same filter. Why every current hit and not only the first: a retriever that ranks
another policy first still returns the question's own policy lower down, and a denial aimed at
the first hit alone would then leave the evidence readable (the scenario would be answerable
by accident); aiming at what is in force among the hits withholds a policy's current version
wherever the retriever ranked it, without knowing which policy the question is about.
Superseded hits of other groups stay readable. No contract mode un-denies; the safe outcome
is an access-aware non-answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from middleware.faults.base import fault
from middleware.types import FaultContext, FaultSteps, ToolCall
from simulator.corpus.model import SessionContext
from simulator.errors import UsageError


@fault(layer="authorization")
def permission_denied(groups: tuple[str, ...] = ()) -> FaultSteps:
    """Revoke the access groups of the documents in force the caller's question finds."""
    fixed = (groups,) if isinstance(groups, str) else tuple(groups)
    if any(not isinstance(g, str) or not g for g in fixed):
        raise UsageError(f"fault 'permission_denied': groups must be non-empty names, "
                         f"got {groups!r}")

    def request(call: ToolCall, ctx: FaultContext) -> ToolCall:
        revoked = fixed or _revoked_groups(call, ctx)
        if not revoked:
            return call
        return call.with_conditions(revoked_groups=tuple(dict.fromkeys(
            (*call.conditions.revoked_groups, *revoked))))

    return FaultSteps(request=request, needs_endpoint=True, needs_environment=not fixed,
                      tools=frozenset({"search_policies", "fetch_document"}))


def _revoked_groups(call: ToolCall, ctx: FaultContext) -> tuple[str, ...]:
    """The access groups of the current documents the caller's question retrieves, or ()."""
    env = ctx.require_environment("permission_denied")
    session: Any = call.args.get("session", ctx.caller)
    if ctx.task is not None:
        query: Any = ctx.task.question
        session = session if _is_session(session) else ctx.task.session
    elif call.name == "fetch_document":
        doc = env.registry.get(str(call.args.get("doc_id")))
        return (doc.access_group,) if doc is not None else ()
    else:
        query = call.args.get("query")
    if not isinstance(query, str) or not _is_session(session):
        return ()  # the endpoint reports the malformed call
    try:
        ranked = env.results(query, session, call.conditions)
    except UsageError:
        return ()  # a malformed session: the endpoint reports it
    found = [doc for d in ranked if (doc := env.registry.get(d)) is not None]
    current = [doc for doc in found if doc.status == "current"] or found[:1]
    return tuple(dict.fromkeys(doc.access_group for doc in current))


def _is_session(session: Any) -> bool:
    return isinstance(session, SessionContext) or (
        isinstance(session, Mapping) and isinstance(session.get("session_id"), str))
