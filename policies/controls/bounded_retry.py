"""bounded_retry (completeness): retry a failed or partial tool call, a bounded number of times.

Timeout recovery: when shards time out, a later attempt may find them back up. The policy
asks the graph for another call while the newest one is missing, invalid or flagged partial,
at most ``max_retries`` times per record; every attempt is a tool call in the trace. When the
budget is spent it allows and leaves the judgement of what came back to the other controls
(``evidence_gate`` decides whether a still-partial result is safe to read).
"""

from __future__ import annotations

from policies.base import Decide, allow, policy
from policies.controls._state import last_call
from simulator.agent.gate import Decision, GateInput
from simulator.errors import UsageError

DEFAULT_MAX_RETRIES = 2


def _problem(state: GateInput) -> str | None:
    call = last_call(state)
    if call is None:
        return None
    if call.status == "missing":
        return "the tool output was missing"
    if not call.valid:
        return "the tool output failed its contract"
    if call.partial:
        shards = ", ".join(call.missing_shards) or "some shards"
        return f"the result was partial ({shards} timed out)"
    return None


@policy(layers="completeness", claims="answer")
def bounded_retry(max_retries: int = DEFAULT_MAX_RETRIES) -> Decide:
    """Retry a missing, invalid or partial tool call up to ``max_retries`` times."""
    if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
        raise UsageError(f"policy 'bounded_retry': max_retries must be a non-negative integer, "
                         f"got {max_retries!r}")

    def decide(state: GateInput) -> Decision:
        problem = _problem(state)
        if problem is None:
            return allow("the last tool call is complete")
        retries = len(state.calls) - 1
        if retries < max_retries:
            return Decision("retry", f"{problem}; retry {retries + 1} of {max_retries}")
        return allow(f"{problem}; retry budget of {max_retries} spent")

    return decide
