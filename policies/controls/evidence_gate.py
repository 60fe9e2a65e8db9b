"""evidence_gate (completeness, authorization, contract): allow, abstain or reject from the
state of the evidence.

The gate reads only whether what came back is usable, never its content, and so acts on
three layers: output that is missing or partial (completeness), withheld (authorization) or
invalid (contract). It declares all three, so its layer credit is judged over all three and
no effect of it is mistaken for an off-target one:

- missing tool output -> abstain (there is nothing to answer from);
- a payload that failed its contract -> reject (it cannot be trusted as evidence);
- access denied -> abstain (withheld evidence is not absent evidence);
- no hits -> abstain;
- a partial result -> abstain when the best-ranked hit of the full search is among the lost
  ones (``on_partial="require_top_hit"``, the default): hits keep the rank they had before
  shards were lost, so a result without rank 0 provably lost the search's best match, while
  one that kept it still holds the document a complete search would have put first.
  ``"abstain"`` refuses every partial result; ``"allow"`` reads whatever came back.
"""

from __future__ import annotations

from policies.base import Decide, allow, policy
from policies.controls._state import last_call, last_payload
from simulator.agent.gate import Decision, GateInput
from simulator.registry import check_choice

PARTIAL_RULES = ("require_top_hit", "abstain", "allow")


@policy(layers=("completeness", "authorization", "contract"), claims="non_answer")
def evidence_gate(on_partial: str = "require_top_hit") -> Decide:
    """Abstain or reject when the evidence is missing, invalid, denied, empty or incomplete."""
    check_choice("policy", "evidence_gate", "on_partial", on_partial, PARTIAL_RULES)

    def decide(state: GateInput) -> Decision:
        call = last_call(state)
        if call is None or call.status == "missing":
            return Decision("abstain", "no usable tool output: nothing to answer from")
        if not call.valid:
            return Decision("reject", "the tool output failed its contract: not evidence")
        if call.access_denied:
            return Decision("abstain", "access denied: the evidence was withheld")
        if not state.evidence:
            return Decision("abstain", "no evidence came back")
        if call.partial and on_partial != "allow":
            payload = last_payload(state)
            has_top = payload is not None and any(h.rank == 0 for h in payload.hits)
            if on_partial == "abstain" or not has_top:
                return Decision("abstain", "partial result without the best-ranked hit: "
                                           "the answer may be on a shard that timed out")
            return allow("partial result, but the best-ranked hit came back")
        return allow("complete, valid evidence")

    return decide
