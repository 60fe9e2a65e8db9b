"""schema_repair (contract): the repair contract mode, exposed as a policy.

The agent's contract step normally runs in the record's contract mode. This policy takes it
over (``contract_override="repair"``): bounded normalization of a drifted payload (version
mapping, field aliases, type coercion), every repair recorded in the trace. As a policy it
can be composed into arms and earns layer credit like the other controls. It never invents
evidence, un-denies, refreshes an index or fixes a session: those layers are left to the
controls that own them.
"""

from __future__ import annotations

from policies.base import Decide, allow, policy
from policies.controls._state import last_call
from simulator.agent.gate import Decision, GateInput


@policy(layers="contract", claims="answer", contract_override="repair")
def schema_repair() -> Decide:
    """Repair a drifted tool payload with bounded normalization (the repair contract)."""

    def decide(state: GateInput) -> Decision:
        call = last_call(state)
        if call is not None and call.repairs:
            return allow(f"payload repaired to the contract: {len(call.repairs)} repair(s)")
        return allow("payload needed no repair")

    return decide
