"""stale_index (freshness): the search endpoint serves an index snapshot that predates the
current versions.

Mechanic: the endpoint searches a snapshot built ``versions_behind`` versions ago. The newest
versions are absent; the version that was current when the snapshot was built comes back
under its own document id with the status it had then ("current"), and the snapshot's
``built_year`` is older than the live registry's. Only a freshness check against the live
registry (``fetch_document``: status superseded, ``superseded_by`` set) can tell.
"""

from __future__ import annotations

from middleware.faults.base import check_positive_int, fault
from middleware.types import FaultContext, FaultSteps, ToolCall


@fault(layer="freshness")
def stale_index(versions_behind: int = 1) -> FaultSteps:
    """Serve the index as it was before the current versions were published."""
    lag = check_positive_int("stale_index", "versions_behind", versions_behind)

    def request(call: ToolCall, ctx: FaultContext) -> ToolCall:
        return call.with_conditions(snapshot_lag=lag)

    return FaultSteps(request=request, needs_endpoint=True)
