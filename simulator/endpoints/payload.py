"""The search_policies payload, schema v2. Its JSON schema is the tool contract.

Strict mode validates raw tool output against :class:`SearchPayload`; anything else (a
drifted v3 shape, a missing body) is rejected. Models forbid unknown fields, so a renamed
field is a contract violation, not a silently dropped value.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

SCHEMA_VERSION: Literal["2"] = "2"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class HitMetadata(_Frozen):
    domain: str
    status: Literal["current", "superseded"]
    effective_year: int
    version: str
    access_group: str
    tenant: str


class PolicyHit(_Frozen):
    doc_id: str
    title: str
    text: str
    score: float
    rank: int
    metadata: HitMetadata


class IndexSnapshot(_Frozen):
    snapshot_id: str
    built_year: int
    """Newest effective year the index had seen when it was built."""
    document_count: int


class AccessInfo(_Frozen):
    denied: bool = False
    withheld_count: int = 0
    """How many hits the caller's access groups could not read. Their text never leaves."""
    reason: str | None = None


class SearchPayload(_Frozen):
    """What ``search_policies(query, session)`` returns."""

    schema_version: Literal["2"] = SCHEMA_VERSION
    query: str
    session_id: str
    """The session the endpoint answered for (a wrong-session fault changes it)."""
    tenant: str
    hits: tuple[PolicyHit, ...]
    index: IndexSnapshot
    partial: bool = False
    missing_shards: tuple[str, ...] = ()
    access: AccessInfo = Field(default_factory=AccessInfo)
    notes: tuple[str, ...] = ()
    """Free-text notes attached to the result set (e.g. an errata notice)."""


def search_payload_schema() -> dict[str, object]:
    """The contract, as JSON schema."""
    return SearchPayload.model_json_schema()
