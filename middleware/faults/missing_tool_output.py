"""missing_tool_output (completeness): the tool returns nothing usable.

Mechanic: whatever the endpoint produced is lost on the way back. The form is drawn per
(seed, task, attempt) among ``forms``: ``none`` (no body at all), ``empty`` (an empty
object) or ``no_hits`` (a body whose ``hits`` field is absent). No contract mode can invent
the evidence; the safe outcome is to abstain.
"""

from __future__ import annotations

from middleware.faults.base import check_choices, fault
from middleware.types import FaultContext, FaultSteps, ToolCall, ToolResult

FORMS = ("none", "empty", "no_hits")


@fault(layer="completeness")
def missing_tool_output(forms: tuple[str, ...] = FORMS) -> FaultSteps:
    """Lose the tool's body: None, an empty dict, or a body without hits."""
    chosen = check_choices("missing_tool_output", "forms", forms, FORMS)

    def response(call: ToolCall, result: ToolResult, ctx: FaultContext) -> ToolResult:
        form = chosen[ctx.rng("missing_tool_output", call).randrange(len(chosen))]
        if form == "none":
            return None
        if form == "empty" or result is None:
            return {}
        return {k: v for k, v in result.items() if k not in ("hits", "results")}

    return FaultSteps(response=response)
