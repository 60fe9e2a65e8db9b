"""A layerrag plugin: one fault, one policy and one scenario, registered from outside the package.

Load it from the command line with ``--plugin`` (the current directory is importable):

    layerrag list faults --plugin examples.plugin
    layerrag run --plugin examples.plugin --scenarios clean,top_hit_lost \\
        --arms uncontrolled,mine=bounded_retry+same_user_only --tasks 24 --out runs/plugin

or install it: a distribution that declares the module under layerrag's entry-point groups
is loaded before any name is resolved, with no option at all (docs/plugins.md)::

    [project.entry-points."layerrag.faults"]
    top_hit_lost = "examples.plugin"

Importing the module is what registers: the decorators add the fault and the policy to the
registries the built-ins use, and :func:`middleware.add_scenario` adds the scenario. Each
component follows the built-ins' rules: the fault is deterministic given the record key and
checks its parameter when built; the policy returns a typed decision with a reason.
"""

from __future__ import annotations

from middleware import FaultSpec, Scenario, add_scenario, fault
from middleware.faults.base import check_probability
from middleware.types import FaultContext, FaultSteps, ToolCall, ToolResult
from policies import policy
from policies.base import Decide, allow
from simulator.agent.gate import Decision, GateInput
from simulator.endpoints.payload import SearchPayload


@fault(layer="completeness")
def top_hit_lost(probability: float = 1.0) -> FaultSteps:
    """Drop the best-ranked hit and flag the result partial, as a lost shard would."""
    chance = check_probability("top_hit_lost", "probability", probability)

    def response(call: ToolCall, result: ToolResult, ctx: FaultContext) -> ToolResult:
        if not isinstance(result, dict) or not result.get("hits"):
            return result
        if ctx.rng("top_hit_lost", call).random() >= chance:
            return result
        return {**result, "hits": list(result["hits"])[1:], "partial": True}

    return FaultSteps(response=response)


@policy(layers="session", claims="non_answer")
def same_user_only(strict: bool = True) -> Decide:
    """Reject evidence cached for another user's session (strict: or another tenant's)."""

    def decide(state: GateInput) -> Decision:
        payload = state.payloads[-1] if state.payloads else None
        if not isinstance(payload, SearchPayload):
            return allow("no payload to check")
        caller = state.task.session
        if payload.session_id != caller.session_id:
            return Decision("reject", f"evidence was cached for session {payload.session_id}, "
                                      f"not the caller's {caller.session_id}")
        if strict and any(hit.metadata.tenant != caller.tenant for hit in payload.hits):
            return Decision("reject", "a hit belongs to another tenant")
        return allow("evidence was produced for the caller's session")

    return decide


TOP_HIT_LOST = add_scenario(Scenario(
    name="top_hit_lost", layer="completeness", answerable=False,
    faults=(FaultSpec(name="top_hit_lost"),), mitigation="evidence_gate",
    description="The best-ranked hit is lost and the result is flagged partial."))
