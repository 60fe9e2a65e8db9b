"""corrupted_metadata (metadata): status, effective year and domain fields are corrupted.

Mechanic: this fault asks for an index whose metadata ``fields`` are corrupted with the run's
seed (``EndpointConditions.corruption``); the endpoint builds it once per seed with
:func:`simulator.retrieval.corruption.corrupt_metadata`. The retriever ranks the corrupted
index (its domain cues and validity rerank read the corrupted fields) and the payload
carries the corrupted metadata. Text, ids and versions are intact; the live registry
(``fetch_document``) is not corrupted, which is what a metadata integrity check compares to.
"""

from __future__ import annotations

from middleware.faults.base import check_choices, fault
from middleware.types import FaultContext, FaultSteps, ToolCall
from simulator.endpoints.conditions import MetadataCorruption
from simulator.retrieval.corruption import CORRUPTIBLE_FIELDS


@fault(layer="metadata")
def corrupted_metadata(fields: tuple[str, ...] = CORRUPTIBLE_FIELDS) -> FaultSteps:
    """Corrupt the status, year and domain metadata the index and payload carry."""
    chosen = check_choices("corrupted_metadata", "fields", fields, CORRUPTIBLE_FIELDS)

    def request(call: ToolCall, ctx: FaultContext) -> ToolCall:
        return call.with_conditions(corruption=MetadataCorruption(seed=ctx.seed, fields=chosen))

    return FaultSteps(request=request, needs_endpoint=True)
