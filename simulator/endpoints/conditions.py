"""Endpoint conditions: the operational state a fault puts the endpoint in for one call.

Faults are mechanics, not payload edits: a stale index, a shard outage, a revoked access group
or a mixed-up session cache are states of the *environment*. The fault decides the state
(which snapshot, which shards are down, whose cache entry, which groups are revoked) and
writes the outcome here; the endpoint honours it with its primitives exactly as a real search
service in that state would. The defaults describe a healthy endpoint.

Conditions are frozen, hashable and JSON-able: the endpoint caches work per condition, and the
LangChain adapter carries them to the tool in the run's state.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class MetadataCorruption(_Frozen):
    """Search an index whose operational metadata was corrupted with ``seed``."""

    seed: int
    fields: tuple[str, ...] = ("status", "effective_year", "domain")


class EndpointConditions(_Frozen):
    """The state the endpoint is in for one call. Defaults: healthy."""

    snapshot_lag: int = Field(default=0, ge=0)
    """Serve the index snapshot built this many versions behind the live registry (0: live)."""
    corruption: MetadataCorruption | None = None
    shards: int | None = Field(default=None, ge=1)
    """Split the index into this many shards for the call (default: the endpoint's)."""
    down_shards: tuple[str, ...] = ()
    """Shards that do not answer the call: their hits are missing and the payload names them."""
    revoked_groups: tuple[str, ...] = ()
    """Access groups taken away from the caller for this call."""
    served_session: str | None = None
    """Hand back the session-keyed result cache's entry for this session id, not the caller's."""
    pinned_doc_ids: tuple[str, ...] = ()
    """Documents that must be among the hits (they displace the lowest-ranked others)."""
    reindexed_lineage: bool = False
    """Older versions of the top hit's policy were re-indexed from a second source: they
    come back right beside it, marked current, displacing nothing."""

    @property
    def healthy(self) -> bool:
        return self == HEALTHY


HEALTHY = EndpointConditions()
