"""Endpoint conditions: the operational state a fault puts the endpoint in for one call.

Faults are mechanics, not payload edits: a stale index, a shard outage, a revoked access group
or a mixed-up session cache are states of the *environment*. A fault describes the state it
wants as :class:`EndpointConditions` on the tool call; the endpoint honours it exactly as a
real search service in that state would. The defaults describe a healthy endpoint.

Conditions are frozen and hashable, so the endpoint can cache work per condition.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ShardOutage(_Frozen):
    """Shards time out on the first attempt and some recover on later attempts.

    Every shard times out on attempt 0 with ``timeout_probability``; a shard that is still
    down recovers at each later attempt with ``recovery_probability`` and then stays up.
    The draws are keyed by ``key`` (the fault's record key: seed and task), the shard and
    the attempt, so the same record and attempt always see the same outage.
    """

    key: str
    attempt: int = Field(ge=0)
    timeout_probability: float = Field(ge=0.0, le=1.0)
    recovery_probability: float = Field(ge=0.0, le=1.0)
    shards: int | None = Field(default=None, ge=1)
    """Partition the index into this many shards for the call (default: the endpoint's)."""


class MetadataCorruption(_Frozen):
    """Search an index whose operational metadata was corrupted with ``seed``."""

    seed: int
    fields: tuple[str, ...] = ("status", "effective_year", "domain")


class EndpointConditions(_Frozen):
    """The state the endpoint is in for one call. Defaults: healthy."""

    snapshot_lag: int = Field(default=0, ge=0)
    """Serve an index snapshot built this many versions behind the live registry (0: live)."""
    corruption: MetadataCorruption | None = None
    shard_outage: ShardOutage | None = None
    revoked_groups: tuple[str, ...] = ()
    """Access groups taken away from the caller for this call."""
    session_mixup_seed: int | None = None
    """Answer from the session-keyed result cache of another session, chosen with this seed."""
    pinned_doc_ids: tuple[str, ...] = ()
    """Documents that must be among the hits (they displace the lowest-ranked others)."""

    @property
    def healthy(self) -> bool:
        return self == HEALTHY


HEALTHY = EndpointConditions()
