"""with_faults: a scenario's faults around any plain tool callable.

    faulty = with_faults(my_search, "schema_drift")
    faulty(query="...", session={...}, fault_context=FaultContext(seed=0))

The wrapped callable receives the same keyword arguments, plus ``conditions`` when it
declares that parameter (``PolicyEnvironment.search_policies`` does). A scenario whose faults
change the endpoint's state is refused at wrap time for a tool that cannot honour them.
Faults that choose from the environment's state (``wrong_session``, ``partial_timeout``) need
the PolicyEnvironment: a method of one (``env.search_policies``) brings it, any other tool
takes ``environment=env``. Outputs are normalized to a JSON-able dict or None: a pydantic
model is dumped, a JSON string parsed.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from middleware.chain import build_tool_chain
from middleware.scenarios import Scenario
from middleware.types import FaultContext, ToolCall, ToolResult
from simulator.endpoints.environment import PolicyEnvironment
from simulator.errors import UsageError


class FaultyTool:
    """A plain tool with a scenario's faults around it. Stateless between calls."""

    def __init__(self, tool: Callable[..., Any], scenario: Scenario | str, *,
                 name: str = "search_policies",
                 environment: PolicyEnvironment | None = None) -> None:
        self.tool = tool
        self.name = name
        self.chain = build_tool_chain(scenario, environment or _environment_of(tool))
        self.accepts_conditions = "conditions" in inspect.signature(tool).parameters
        tool_name = getattr(tool, "__name__", repr(tool))
        if self.chain.needs_endpoint and not self.accepts_conditions:
            raise UsageError(
                f"scenario {self.chain.scenario.name!r}: fault(s) "
                f"{', '.join(self.chain.needs_endpoint)} change the endpoint's state, but "
                f"{tool_name} has no 'conditions' parameter to honour it")
        if self.chain.needs_environment and self.chain.environment is None:
            raise UsageError(
                f"scenario {self.chain.scenario.name!r}: fault(s) "
                f"{', '.join(self.chain.needs_environment)} choose from the environment's "
                f"state, but {tool_name} is not a PolicyEnvironment's: pass environment=env")

    def __call__(self, *, fault_context: FaultContext | None = None, **kwargs: Any
                 ) -> ToolResult:
        call = ToolCall(name=self.name, args=kwargs)
        return self.chain.invoke(call, fault_context or FaultContext(), endpoint=self._run)

    async def acall(self, *, fault_context: FaultContext | None = None, **kwargs: Any
                    ) -> ToolResult:
        """Async twin: awaits the tool when it is a coroutine function."""
        call = ToolCall(name=self.name, args=kwargs)
        return await self.chain.ainvoke(call, fault_context or FaultContext(),
                                        endpoint=self._arun)

    def _kwargs(self, call: ToolCall) -> dict[str, Any]:
        kwargs = dict(call.args)
        if self.accepts_conditions:
            kwargs["conditions"] = call.conditions
        return kwargs

    def _run(self, call: ToolCall) -> ToolResult:
        return as_result(self.tool(**self._kwargs(call)))

    async def _arun(self, call: ToolCall) -> ToolResult:
        out = self.tool(**self._kwargs(call))
        if inspect.isawaitable(out):
            out = await out
        return as_result(out)


def with_faults(tool: Callable[..., Any], scenario: Scenario | str, *,
                name: str = "search_policies",
                environment: PolicyEnvironment | None = None) -> FaultyTool:
    """Wrap ``tool`` (called as the endpoint ``name``) in ``scenario``'s faults.

    ``environment``: the PolicyEnvironment behind the tool (default: the one ``tool`` is a
    method of, if any), for faults that choose from its state.
    """
    return FaultyTool(tool, scenario, name=name, environment=environment)


def _environment_of(tool: Callable[..., Any]) -> PolicyEnvironment | None:
    owner = getattr(tool, "__self__", None)
    return owner if isinstance(owner, PolicyEnvironment) else None


def as_result(out: Any) -> ToolResult:
    """A tool's output as a JSON-able dict or None."""
    if out is None or isinstance(out, dict):
        return out
    if isinstance(out, BaseModel):
        return out.model_dump(mode="json")
    if isinstance(out, str | bytes):
        text = out.decode() if isinstance(out, bytes) else out
        if not text.strip():
            return None
        try:
            parsed = json.loads(text)
        except ValueError:
            raise UsageError(f"tool output is not JSON: {text[:60]!r}") from None
        if parsed is None or isinstance(parsed, dict):
            return parsed
    raise UsageError(f"tool output must be a JSON object, got {type(out).__name__}")
