"""The vocabulary of the fault chain: a tool call, its context, a fault, an operational layer.

A fault has two optional steps. ``request`` rewrites the call on its way to the endpoint
(usually by setting :class:`~simulator.endpoints.conditions.EndpointConditions`: the state the
fault puts the environment in). ``response`` rewrites what comes back (a drifted schema, a
lost body, an attached note). Two plain steps instead of a wrapped "next" callable let the
same fault run in a synchronous chain, an async chain and a LangChain middleware alike.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from simulator.corpus.model import SessionContext, Task
from simulator.endpoints.conditions import HEALTHY, EndpointConditions
from simulator.endpoints.environment import PolicyEnvironment
from simulator.errors import UsageError
from simulator.vocabulary import Layer

ToolResult = dict[str, Any] | None
"""What a tool returns on the wire: a JSON-able dict, or nothing at all."""



class FaultCannotAct(UsageError):
    """A fault met a tool output it cannot act on (schema_drift on text): refused in one
    line, never passed through as if the fault had acted. The adapter adds the tool's name."""


class ToolCall(BaseModel):
    """One call of a tool endpoint: its name, its arguments, and the endpoint's state."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    args: dict[str, Any] = Field(default_factory=dict)
    conditions: EndpointConditions = HEALTHY
    """Set by faults, honoured by a conditions-aware endpoint (PolicyEnvironment)."""

    def with_conditions(self, **changes: Any) -> ToolCall:
        return self.model_copy(update={"conditions": self.conditions.model_copy(update=changes)})


class FaultContext(BaseModel):
    """Per record and attempt: what a fault may key its draws on, target and choose from.

    It holds nothing evaluator-only: no labels, no expected answer, no required document id.
    A fault aims from the call, from what the retriever returns and from the documents' own
    metadata, through the environment's primitives (permission_denied asks what the question
    retrieves first, wrong_session picks another session from the session-keyed cache,
    stale_index and conflicting_evidence follow the registry's lineage). A fault that needs
    labels to choose its target is not a mechanic, and cannot be written against this context.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", arbitrary_types_allowed=True)
    task: Task | None = None
    """The task as the agent receives it (question, answer format, session): public."""
    attempt: int = Field(default=0, ge=0)
    """0 for the first tool call of a record, 1 for the first retry, ..."""
    seed: int = 0
    caller: SessionContext | None = None
    """Who is calling, for a tool that binds the session itself (a LangChain tool takes it
    from the run's plan). A fault that targets the caller reads the call's ``session``
    argument first."""
    environment: PolicyEnvironment | None = Field(default=None, exclude=True, repr=False)
    """The environment behind the endpoint. The tool chain sets it when it knows one; a
    fault reads it through :meth:`require_environment`."""

    def key(self, call: ToolCall | None = None) -> str:
        """The record key faults seed their draws with: seed and task (attempt excluded).

        Without a task, a digest of the call's arguments stands in, so a plain tool wrapped
        outside layerrag still gets reproducible faults.
        """
        if self.task is not None:
            return f"{self.seed}|{self.task.task_id}"
        args = json.dumps(call.args if call is not None else {}, sort_keys=True, default=str)
        return f"{self.seed}|args:{hashlib.sha256(args.encode()).hexdigest()[:16]}"

    def rng(self, salt: str, call: ToolCall | None = None, *, per_attempt: bool = True
            ) -> random.Random:
        """A generator seeded from (seed, task[, attempt], salt): the only randomness faults use."""
        attempt = f"|{self.attempt}" if per_attempt else ""
        return random.Random(f"{self.key(call)}{attempt}|{salt}")

    def require_environment(self, fault: str) -> PolicyEnvironment:
        if self.environment is None:
            raise UsageError(f"fault {fault!r} makes its choice from the environment's state: "
                             "build the chain with a PolicyEnvironment (build_tool_chain(s, "
                             "env), policy_tools(env), or with_faults(..., environment=env))")
        return self.environment


RequestStep = Callable[[ToolCall, FaultContext], ToolCall]
ResponseStep = Callable[[ToolCall, ToolResult, FaultContext], ToolResult]


def _same_call(call: ToolCall, ctx: FaultContext) -> ToolCall:
    return call


def _same_result(call: ToolCall, result: ToolResult, ctx: FaultContext) -> ToolResult:
    return result


@dataclass(frozen=True)
class FaultSteps:
    """What a fault factory returns: the steps, and which calls they apply to."""

    request: RequestStep = _same_call
    response: ResponseStep = _same_result
    tools: frozenset[str] = frozenset({"search_policies"})
    """Tool names the fault applies to; other calls pass through untouched."""
    needs_endpoint: bool = False
    """True when the fault works through EndpointConditions, so the tool behind the chain
    must honour them (a plain tool that ignored them would silently serve a healthy result)."""
    needs_environment: bool = False
    """True when the request step chooses with the environment's primitives
    (``ctx.require_environment``), so the chain must know the PolicyEnvironment."""


@dataclass(frozen=True)
class Fault:
    """A built fault: its registered name and layer, its parameters and its steps."""

    name: str
    layer: Layer
    steps: FaultSteps
    params: Mapping[str, Any] = field(default_factory=dict)

    def applies_to(self, call: ToolCall) -> bool:
        return call.name in self.steps.tools

    @property
    def needs_endpoint(self) -> bool:
        return self.steps.needs_endpoint
