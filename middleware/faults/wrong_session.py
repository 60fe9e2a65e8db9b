"""wrong_session (session): the endpoint answers from another session's state.

Mechanic: the endpoint keeps a session-keyed result cache (``env.session_cache``: session id
-> the task whose question it answered for that session). This fault makes the cache hand
the caller another session's entry (``EndpointConditions.served_session``), and this module
decides whose (:func:`other_session`):

1. candidates: every other session in the cache, in the cache's order;
2. order: shuffled by ``random.Random(f"wrong_session|{seed}|{caller session id}")``. The
   attempt is not in the key, so every retry gets the same mix-up: the cache is sticky;
3. choice: the first candidate whose cached results (``env.cached_results``) share no policy
   with what the caller's own question retrieves, ranked to twice the search depth
   (``env.results(..., depth=2 * env.top_k)``): no document of theirs is a version (in the
   registry's lineage, ``env.registry.lineage``, read from the documents' own metadata) of
   one of those. The margin matters where the caller's own search ranked its policy just
   below the top k: another session that asked about that policy would otherwise hand the
   caller its own evidence by chance. The first candidate if none qualifies. A caller the
   cache does not know has no results of its own, and any candidate qualifies.

Nothing here reads labels: which policy a session's results belong to is what the retriever
returned and what the documents publish about their versions.

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
    task = env.session_cache.get(caller)
    own = env.results(task.question, task.session, conditions, depth=2 * env.top_k) \
        if task is not None else ()
    own_versions = {v for doc_id in own for v in env.registry.lineage(doc_id)}
    candidates = [session for session in env.session_cache if session != caller]
    if not candidates:
        raise UsageError("wrong_session needs another session in the cache; "
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
