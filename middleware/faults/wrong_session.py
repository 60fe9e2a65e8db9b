"""wrong_session (session): the endpoint answers from another session's state.

Mechanic: the endpoint keeps a session-keyed result cache (``env.session_cache``: session id
-> the task whose question it answered for that session). This fault makes the cache hand
the caller another session's entry (``EndpointConditions.served_session``), and this module
decides whose (:func:`other_session`):

1. candidates: every other session in the cache whose task belongs to another policy unit
   (the corpus labels say which; the fault is the environment, so it may read them);
2. order: shuffled by ``random.Random(f"wrong_session|{seed}|{caller session id}")``. The
   attempt is not in the key, so every retry gets the same mix-up: the cache is sticky;
3. choice: the first candidate whose cached results (``env.cached_results``) hold no version
   of the caller's policy, so the mix-up never hands back the caller's own evidence by
   chance; the first candidate if none qualifies.

The endpoint then serves that entry: the other session's id and query, its results under the
environment-wide state (snapshot, corruption, shard outage), neither the caller's access nor
its pins. The evidence is well-formed and readable, so an answer grounded in it is still
wrong: only session isolation helps.

In a composed scenario, the "no version of the caller's policy" test reads the index that the
faults listed before this one have selected (list this fault after ``stale_index`` to judge
on the stale snapshot).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping

from middleware.faults.base import fault
from middleware.types import FaultContext, FaultSteps, ToolCall
from simulator.corpus.model import SessionContext
from simulator.endpoints.conditions import EndpointConditions
from simulator.endpoints.environment import PolicyEnvironment
from simulator.errors import UsageError


@fault(layer="session")
def wrong_session() -> FaultSteps:
    """Serve another session's cached results."""

    def request(call: ToolCall, ctx: FaultContext) -> ToolCall:
        caller = _caller_session_id(call, ctx)
        if caller is None:
            return call  # the endpoint reports the missing or malformed session
        other = other_session(ctx.require_environment("wrong_session"), caller, ctx.seed,
                              call.conditions)
        return call.with_conditions(served_session=other)

    return FaultSteps(request=request, needs_endpoint=True, needs_environment=True)


@functools.lru_cache(maxsize=8192)
def other_session(env: PolicyEnvironment, caller: str, seed: int,
                  conditions: EndpointConditions) -> str:
    """The session whose cached results the mixed-up cache hands to session ``caller``.

    Memoized: the choice is a pure function of its arguments (the environment by identity,
    the frozen conditions by value), and the cache is sticky by design, so each retry and
    each arm of a record reuses the first draw instead of re-ranking every candidate."""
    unit_of = {lab.task_id: lab.unit for lab in env.corpus.labels}
    versions_of = {lab.unit: (*lab.required_doc_ids, *lab.superseded_doc_ids)
                   for lab in env.corpus.labels}
    own = env.session_cache.get(caller)
    own_unit = unit_of.get(own.task_id) if own is not None else None
    own_versions = set(versions_of.get(own_unit, ())) if own_unit is not None else set()
    candidates = [session for session, task in env.session_cache.items()
                  if session != caller
                  and (own_unit is None or unit_of.get(task.task_id) != own_unit)]
    if not candidates:
        raise UsageError("wrong_session needs another session of another policy unit; "
                         f"corpus {env.corpus.name!r} has none")
    random.Random(f"wrong_session|{seed}|{caller}").shuffle(candidates)
    return next((session for session in candidates
                 if own_versions.isdisjoint(env.cached_results(session, conditions))),
                candidates[0])


def _caller_session_id(call: ToolCall, ctx: FaultContext) -> str | None:
    """The call's ``session`` argument, else the caller the context names."""
    session = call.args.get("session", ctx.caller)
    if isinstance(session, SessionContext):
        return session.session_id
    found = session.get("session_id") if isinstance(session, Mapping) else None
    return found if isinstance(found, str) else None
