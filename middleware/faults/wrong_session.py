"""wrong_session (session): the endpoint answers from another session's state.

Mechanic: a session-keyed result cache hands back the results it cached for another
session: another task's, of another policy unit, chosen deterministically from the caller's
session and the seed (the same mix-up on every retry: the cache is sticky). The payload is
that session's, carrying that session's id and query. Its evidence is well-formed and
readable, so an answer grounded in it is still wrong: only session isolation helps.
"""

from __future__ import annotations

from middleware.faults.base import fault
from middleware.types import FaultContext, FaultSteps, ToolCall


@fault(layer="session")
def wrong_session() -> FaultSteps:
    """Serve another session's cached results."""

    def request(call: ToolCall, ctx: FaultContext) -> ToolCall:
        return call.with_conditions(session_mixup_seed=ctx.seed)

    return FaultSteps(request=request, needs_endpoint=True)
