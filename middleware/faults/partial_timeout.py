"""partial_timeout (completeness): some shards time out and a subset of the hits comes back.

Mechanic: the endpoint's index is sharded (documents by id hash, ``env.shard_of``). This
module decides which shards answer (:func:`still_down`): on the first attempt every shard
times out with ``timeout_probability``; on each later attempt a shard that is still down
recovers with ``recovery_probability`` and stays up, so a retry never loses a shard. The draws
are keyed by (seed, task, shard, attempt), so a bounded retry recovers some records and not
others. The fault names the down shards in ``EndpointConditions.down_shards``; the endpoint
drops the hits they hold, flags the payload ``partial`` and names them in
``missing_shards``.

Calibration (paper: partial-timeout success 0.31): with the defaults the shard holding a
task's required document is down on the first attempt for about two thirds of the tasks
(0.61-0.73 over seeds 0-19 on enterprise_v2; 0.73 at seed 0), and each retry brings it back
with probability 0.5.
"""

from __future__ import annotations

import random

from middleware.faults.base import check_positive_int, check_probability, fault
from middleware.types import FaultContext, FaultSteps, ToolCall


@fault(layer="completeness")
def partial_timeout(timeout_probability: float = 0.65, recovery_probability: float = 0.5,
                    shards: int | None = None) -> FaultSteps:
    """Time out shards; return the hits of the shards that answered, flagged partial."""
    timeout = check_probability("partial_timeout", "timeout_probability", timeout_probability)
    recovery = check_probability("partial_timeout", "recovery_probability",
                                 recovery_probability)
    count = check_positive_int("partial_timeout", "shards", shards, allow_none=True)

    def request(call: ToolCall, ctx: FaultContext) -> ToolCall:
        env = ctx.require_environment("partial_timeout")
        key = f"partial_timeout|{ctx.key(call)}"
        down = tuple(shard for shard in env.shard_names(count)
                     if still_down(key, shard, ctx.attempt, timeout, recovery))
        return call.with_conditions(shards=count, down_shards=down)

    return FaultSteps(request=request, needs_endpoint=True, needs_environment=True)


def still_down(key: str, shard: str, attempt: int, timeout_probability: float,
               recovery_probability: float) -> bool:
    """Has ``shard`` not answered by ``attempt``?

    It timed out on attempt 0 and failed every recovery draw at attempts 1..``attempt``.
    Each draw is its own string-seeded generator (stable across processes and hash seeds),
    so attempt ``a`` sees the same draws as every earlier attempt plus one.
    """
    down = random.Random(f"{key}|{shard}|timeout").random() < timeout_probability
    for later in range(1, attempt + 1):
        if not down:
            break
        down = random.Random(f"{key}|{shard}|recover|{later}").random() >= recovery_probability
    return down
