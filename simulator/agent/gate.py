"""The policy gate: the slot in the graph that mitigation policies fill.

The gate sees what retrieval produced (after the contract step) and returns a typed
decision. The default, ``uncontrolled``, allows everything: the pipeline then behaves like
the paper's baseline agent. ``policies/`` builds other gates from registered controls.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

from pydantic import BaseModel, ConfigDict

from simulator.agent.trace import ToolCallTrace
from simulator.corpus.model import Task
from simulator.readers.base import Evidence
from simulator.vocabulary import Action


class Decision(NamedTuple):
    """What the gate decided, and why. ``evidence`` replaces what the reader will see;
    ``instructions`` are added to what the reader is told (a policy that shapes how the
    answer is written, such as conflict_disclosure's guiding prompt)."""

    action: Action
    reason: str
    evidence: tuple[Evidence, ...] | None = None
    policy: str = "gate"
    instructions: str | None = None


class GateInput(BaseModel):
    """The evidence state a policy decides on."""

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)
    task: Task
    contract_mode: str
    calls: tuple[ToolCallTrace, ...]
    """Every tool call so far, in order; the last one is the current evidence state."""
    payloads: tuple[Any, ...]
    """The contract-checked payload (SearchPayload or None) of each call, aligned with calls."""
    evidence: tuple[Evidence, ...]
    """What the reader would see if the gate allows."""
    notes: tuple[str, ...] = ()
    fetch_document: Callable[[str], dict[str, Any] | None] | None = None
    """Read-only access to the live document registry, for freshness checks."""


class PolicyGate(Protocol):
    """A gate decides on the evidence state; it may also set ``contract_override``
    (an attribute, ``"repair"`` or None) to take over the contract step."""

    name: str

    def __call__(self, state: GateInput) -> list[Decision] | Decision: ...


class Uncontrolled:
    """Allow everything: no mitigation."""

    name = "uncontrolled"

    def __call__(self, state: GateInput) -> Decision:
        return Decision("allow", "uncontrolled arm", policy=self.name)


UNCONTROLLED = Uncontrolled()
