"""stale_index (freshness): the search endpoint serves an index snapshot that predates the
current versions.

Mechanic: this fault sets ``EndpointConditions.snapshot_lag`` to ``versions_behind``; the
endpoint then searches the index it built from the registry as it was that many versions ago
(``env.index(snapshot_lag=...)``; which documents are versions of one policy, and in what
order, is the lineage the documents publish, read by the registry, never the labels). The
newest versions are absent; the version that was current when the snapshot was built comes
back under its own document id with the status it had then ("current"), and the snapshot's
``built_year`` is older than the live registry's. Only a freshness check against the live
registry (``fetch_document``: status superseded, ``superseded_by`` set) can tell. Retries see
the same snapshot.

A lag that leaves an empty snapshot (``versions_behind`` >= the most versions any policy of
the corpus has, ``env.max_snapshot_lag`` + 1) is a usage error on the first call.
"""

from __future__ import annotations

from middleware.faults.base import check_positive_int, fault
from middleware.types import FaultContext, FaultSteps, ToolCall
from simulator.errors import UsageError


@fault(layer="freshness")
def stale_index(versions_behind: int = 1) -> FaultSteps:
    """Serve the index as it was before the current versions were published."""
    lag = check_positive_int("stale_index", "versions_behind", versions_behind)

    def request(call: ToolCall, ctx: FaultContext) -> ToolCall:
        env = ctx.environment
        if env is not None and lag is not None and lag > env.max_snapshot_lag:
            deepest = env.max_snapshot_lag + 1
            raise UsageError(f"stale_index: versions_behind={lag} leaves an empty index "
                             f"snapshot: corpus {env.corpus.name} keeps at most {deepest} "
                             f"version(s) of a policy, so use at most {deepest - 1}")
        return call.with_conditions(snapshot_lag=lag)

    return FaultSteps(request=request, needs_endpoint=True)
