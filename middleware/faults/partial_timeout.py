"""partial_timeout (completeness): some shards time out and a subset of the hits comes back.

Mechanic: the index is sharded (documents by id hash). On the first attempt every shard
times out with ``timeout_probability``; on each later attempt a shard that is still down
recovers with ``recovery_probability`` and stays up. Hits held by a shard that did not answer
are missing; the payload is flagged ``partial`` and names the shards. Draws are keyed by
(seed, task, shard, attempt), so a bounded retry recovers some records and not others.

Calibration (paper: partial-timeout success 0.31): with the defaults the shard holding a
task's required document is down on the first attempt for about two thirds of the tasks
(0.61-0.73 over seeds 0-19 on enterprise_v2; 0.73 at seed 0), and each retry brings it back
with probability 0.5.
"""

from __future__ import annotations

from middleware.faults.base import check_positive_int, check_probability, fault
from middleware.types import FaultContext, FaultSteps, ToolCall
from simulator.endpoints.conditions import ShardOutage


@fault(layer="completeness")
def partial_timeout(timeout_probability: float = 0.65, recovery_probability: float = 0.5,
                    shards: int | None = None) -> FaultSteps:
    """Time out shards; return the hits of the shards that answered, flagged partial."""
    timeout = check_probability("partial_timeout", "timeout_probability", timeout_probability)
    recovery = check_probability("partial_timeout", "recovery_probability",
                                 recovery_probability)
    count = check_positive_int("partial_timeout", "shards", shards, allow_none=True)

    def request(call: ToolCall, ctx: FaultContext) -> ToolCall:
        outage = ShardOutage(key=f"partial_timeout|{ctx.key(call)}", attempt=ctx.attempt,
                             timeout_probability=timeout, recovery_probability=recovery,
                             shards=count)
        return call.with_conditions(shard_outage=outage)

    return FaultSteps(request=request, needs_endpoint=True)
