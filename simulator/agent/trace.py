"""What the agent records while it runs; the scorer reads it beside the answer."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from simulator.vocabulary import Action


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ToolCallTrace(_Frozen):
    """One tool call after the contract step."""

    tool: str
    attempt: int
    status: Literal["ok", "missing", "invalid"]
    valid: bool
    """The payload satisfied its schema after the contract step (the V metric)."""
    repairs: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()
    doc_ids: tuple[str, ...] = ()
    """Documents the call returned (empty when it was rejected)."""
    session_id: str | None = None
    snapshot_id: str | None = None
    partial: bool = False
    missing_shards: tuple[str, ...] = ()
    access_denied: bool = False


class PolicyStep(_Frozen):
    """One decision of a mitigation policy, in order."""

    policy: str
    action: Action
    reason: str


class Trace(_Frozen):
    """A record's path through the graph."""

    caller_session_id: str
    tool_calls: tuple[ToolCallTrace, ...] = ()
    evidence_doc_ids: tuple[str, ...] = ()
    """Documents that reached the reader (after contract and policy steps)."""
    policy_steps: tuple[PolicyStep, ...] = ()
    prompt_built: bool = False
    prompt_hash: str | None = None
    terminated: str | None = None
    """Why the graph ended before building a prompt (missing output, access denied, ...)."""

    @property
    def retrieved_doc_ids(self) -> tuple[str, ...]:
        """Every document a schema-valid tool call returned, first-seen order."""
        seen: dict[str, None] = {}
        for call in self.tool_calls:
            if call.valid:
                seen.update(dict.fromkeys(call.doc_ids))
        return tuple(seen)
