"""session_isolation (session): reject evidence that was produced for another session or tenant.

A session-keyed cache that hands back another caller's results produces well-formed,
readable evidence, and an answer grounded in it is still wrong. The payload says whose
session and tenant it answered for; the policy compares them (and every hit's tenant) with
the caller's own and rejects on any mismatch.
"""

from __future__ import annotations

from policies.base import Decide, allow, policy
from policies.controls._state import last_payload
from simulator.agent.gate import Decision, GateInput


@policy(layers="session", claims="non_answer")
def session_isolation() -> Decide:
    """Reject evidence whose session or tenant is not the caller's."""

    def decide(state: GateInput) -> Decision:
        payload = last_payload(state)
        if payload is None:
            return allow("no payload to check")
        caller = state.task.session
        if payload.session_id != caller.session_id:
            return Decision("reject", f"evidence belongs to session {payload.session_id}, "
                                      f"not the caller's {caller.session_id}")
        tenants = {payload.tenant} | {h.metadata.tenant for h in payload.hits}
        foreign = sorted(tenants - {caller.tenant})
        if foreign:
            return Decision("reject", f"evidence belongs to tenant {foreign[0]}, not the "
                                      f"caller's {caller.tenant}")
        return allow("evidence belongs to the caller's session and tenant")

    return decide
