"""A scenario's tool chain: its faults around an endpoint, built once, invoked per call.

``invoke`` runs every matching fault's request step (first fault first), calls the endpoint
once, then every response step in reverse, so the first fault listed is the outermost, as
in LangChain's middleware lists. The endpoint is a :class:`PolicyEnvironment` by default, or
any callable given per call (a LangChain tool handler, a user's plain tool): the chain holds
no per-call state and is safe to share across threads and event loops.

A chain built with a PolicyEnvironment hands it to every step as ``FaultContext.environment``
(unless the context already names one), so a fault can make its choice with the environment's
primitives (wrong_session picks another session of the session-keyed cache, partial_timeout
draws over the environment's shards).
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable

from middleware.scenarios import Scenario, get_scenario
from middleware.types import Fault, FaultContext, ToolCall, ToolResult
from simulator.endpoints.environment import PolicyEnvironment
from simulator.errors import UsageError

Endpoint = Callable[[ToolCall], ToolResult]
AsyncEndpoint = Callable[[ToolCall], Awaitable[ToolResult]]
_Applied = list[tuple[Fault, ToolCall]]


def environment_endpoint(env: PolicyEnvironment) -> Endpoint:
    """The conditions-aware endpoint of a PolicyEnvironment."""

    def endpoint(call: ToolCall) -> ToolResult:
        return env.handle(call.name, call.args, call.conditions)

    return endpoint


class ToolChain:
    """The faults of one scenario around a tool endpoint (and the environment behind it)."""

    def __init__(self, scenario: Scenario, faults: tuple[Fault, ...],
                 endpoint: Endpoint | None = None, *,
                 environment: PolicyEnvironment | None = None) -> None:
        self.scenario = scenario
        self.faults = faults
        self.endpoint = endpoint
        self.environment = environment

    @property
    def needs_endpoint(self) -> tuple[str, ...]:
        """Names of the faults that need a conditions-aware endpoint."""
        return tuple(f.name for f in self.faults if f.needs_endpoint)

    @property
    def needs_environment(self) -> tuple[str, ...]:
        """Names of the faults that choose with the environment's primitives."""
        return tuple(f.name for f in self.faults if f.steps.needs_environment)

    def invoke(self, call: ToolCall, ctx: FaultContext, *,
               endpoint: Endpoint | None = None) -> ToolResult:
        """Run ``call`` through the faults and the endpoint; JSON-able dict or None."""
        ctx = self.context(ctx)
        call, applied = self.prepare(call, ctx)
        return self.finish(applied, self._endpoint(endpoint)(call), ctx)

    async def ainvoke(self, call: ToolCall, ctx: FaultContext, *,
                      endpoint: AsyncEndpoint | Endpoint | None = None) -> ToolResult:
        """Async twin of :meth:`invoke`; the endpoint may be sync or async."""
        ctx = self.context(ctx)
        call, applied = self.prepare(call, ctx)
        result = self._endpoint(endpoint)(call)
        if inspect.isawaitable(result):
            result = await result
        return self.finish(applied, result, ctx)

    def context(self, ctx: FaultContext) -> FaultContext:
        """``ctx`` with this chain's environment, unless it already names one."""
        if ctx.environment is not None or self.environment is None:
            return ctx
        return ctx.model_copy(update={"environment": self.environment})

    def prepare(self, call: ToolCall, ctx: FaultContext) -> tuple[ToolCall, _Applied]:
        """Request steps, outermost first. Returns the call the endpoint receives."""
        ctx = self.context(ctx)
        applied: _Applied = []
        for fault in self.faults:
            if fault.applies_to(call):
                applied.append((fault, call))
                call = fault.steps.request(call, ctx)
        return call, applied

    def finish(self, applied: _Applied, result: ToolResult, ctx: FaultContext) -> ToolResult:
        """Response steps, innermost first; each sees the call as its fault received it."""
        for fault, call in reversed(applied):
            result = fault.steps.response(call, result, ctx)
        return result

    def _endpoint(self, given: Callable[[ToolCall], object] | None
                  ) -> Callable[[ToolCall], ToolResult]:
        chosen = given or self.endpoint
        if chosen is None:
            raise UsageError(f"scenario {self.scenario.name!r}: no endpoint; build the chain "
                             "with a PolicyEnvironment or pass endpoint= per call")
        return chosen  # type: ignore[return-value]


def build_tool_chain(scenario: Scenario | str, env: PolicyEnvironment | None = None
                     ) -> ToolChain:
    """Resolve the scenario and build its faults (bad names and parameters fail here)."""
    resolved = get_scenario(scenario)
    return ToolChain(resolved, resolved.build_faults(),
                     environment_endpoint(env) if env is not None else None, environment=env)
