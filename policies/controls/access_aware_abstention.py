"""access_aware_abstention (authorization): a denial yields a structured non-answer, never a guess.

When the search withheld results from this caller, whatever is left is not the evidence the
question needs, and answering from it would be a guess dressed as an answer. The policy
abstains with a reason that says access was denied and how much was withheld, so the caller
can request access instead of trusting a wrong value.
"""

from __future__ import annotations

from policies.base import Decide, allow, policy
from policies.controls._state import last_call, last_payload
from simulator.agent.gate import Decision, GateInput


@policy(layers="authorization", claims="non_answer")
def access_aware_abstention() -> Decide:
    """Abstain with an access-denied reason whenever results were withheld from the caller."""

    def decide(state: GateInput) -> Decision:
        call = last_call(state)
        if call is None or not call.access_denied:
            return allow("no access denial")
        payload = last_payload(state)
        withheld = payload.access.withheld_count if payload is not None else 0
        count = f"{withheld} result(s)" if withheld else "results"
        return Decision("abstain", f"access denied: {count} withheld from session "
                                   f"{state.task.session.session_id}; request access to answer")

    return decide
