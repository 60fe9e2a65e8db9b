"""FaultInjectionMiddleware: the scenario faults as a LangChain ``AgentMiddleware``.

Add it to any ``create_agent`` agent and pass a :class:`FaultPlan` as the run's ``context``
(``create_agent(..., context_schema=FaultPlan)``, or any context with a ``fault_plan``
attribute or key). For every tool call it runs the plan's scenario chain around the real
tool: request steps before the tool runs, response steps on the tool's JSON output. A run
without a plan passes through untouched. The instance keeps no per-run state (only a cache
of built chains per scenario name), so one instance serves concurrent runs.

Faults that change the endpoint's state (stale index, outage, revoked access, session cache)
need a tool that honours :class:`EndpointConditions`, such as :func:`policy_tools`, and the
faults that choose from the environment's state (wrong_session, partial_timeout, ...) need a
tool that carries its PolicyEnvironment (:func:`policy_tools`' do, and the middleware hands
it to them as ``FaultContext.environment``). A tool of your own mapped to a role that cannot
honour the run's scenario is refused before the first model call, in one line naming the
fault and the tool (:func:`refusal`), rather than silently injecting nothing. Payload faults
(schema drift, missing output) work on any tool that returns JSON; a payload fault that
cannot act on a tool's output (text, not JSON) is refused naming both.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from langchain.agents.middleware import (
    AgentMiddleware,
    ModelRequest,
    ModelResponse,
    ToolCallRequest,
)
from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool
from langgraph.types import Command

from middleware.adapters.langchain_tools import (
    ATTEMPT_STATE_KEY,
    CONDITIONS_STATE_KEY,
    HONOURS_CONDITIONS,
    PolicyTool,
    environment_of,
    session_of,
)
from middleware.adapters.plan import plan_from_context
from middleware.chain import ToolChain, build_tool_chain
from middleware.scenarios import Scenario
from middleware.types import Fault, FaultCannotAct, FaultContext, ToolCall, ToolResult
from simulator.errors import UsageError

_Applied = list[tuple[Fault, ToolCall]]
_Begun = tuple[ToolChain, ToolCallRequest, _Applied, FaultContext]


class FaultInjectionMiddleware(AgentMiddleware):
    """Inject the run's scenario faults into matching tool calls."""

    def __init__(self, tools: Mapping[str, str] | Iterable[str] =
                 ("search_policies", "fetch_document"), *, name: str | None = None) -> None:
        """``tools``: the agent's tool names to fault, or a map from a tool name to the
        endpoint role it plays ("search_policies" or "fetch_document")."""
        super().__init__()
        self._roles = dict(tools) if isinstance(tools, Mapping) else {t: t for t in tools}
        self._name = name
        self._chains: dict[str, ToolChain] = {}
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return self._name or type(self).__name__

    def wrap_tool_call(self, request: ToolCallRequest,
                       handler: Callable[[ToolCallRequest], ToolMessage | Command]
                       ) -> ToolMessage | Command:
        begun = self._begin(request)
        if begun is None:
            return handler(request)
        chain, faulted, applied, ctx = begun
        return _finish(chain, applied, ctx, handler(faulted))

    async def awrap_tool_call(self, request: ToolCallRequest,
                              handler: Callable[[ToolCallRequest],
                                                Awaitable[ToolMessage | Command]]
                              ) -> ToolMessage | Command:
        begun = self._begin(request)
        if begun is None:
            return await handler(request)
        chain, faulted, applied, ctx = begun
        return _finish(chain, applied, ctx, await handler(faulted))

    def wrap_model_call(self, request: ModelRequest,
                        handler: Callable[[ModelRequest], ModelResponse]) -> ModelResponse:
        self._check_tools(request)
        return handler(request)

    async def awrap_model_call(self, request: ModelRequest,
                               handler: Callable[[ModelRequest], Awaitable[ModelResponse]]
                               ) -> ModelResponse:
        self._check_tools(request)
        return await handler(request)

    def _check_tools(self, request: ModelRequest) -> None:
        """Refuse, before the model is called, a scenario that a bound tool of a mapped role
        cannot honour (the first model call comes before any tool call)."""
        plan = plan_from_context(getattr(request.runtime, "context", None))
        if plan is None:
            return
        chain = self.chain(plan.scenario)
        for tool in request.tools:
            role = self._roles.get(tool.name) if isinstance(tool, BaseTool) else None
            if isinstance(tool, BaseTool) and role is not None:
                why = refusal(chain, tool, role)
                if why is not None:
                    raise UsageError(why)

    def chain(self, scenario: str | Scenario) -> ToolChain:
        """The built chain of ``scenario`` (cached: building validates, then it is reused)."""
        key = scenario if isinstance(scenario, str) else scenario.model_dump_json()
        found = self._chains.get(key)
        if found is None:
            with self._lock:
                found = self._chains.setdefault(key, build_tool_chain(scenario))
        return found

    def _begin(self, request: ToolCallRequest) -> _Begun | None:
        plan = plan_from_context(getattr(request.runtime, "context", None))
        tool_call = request.tool_call
        role = self._roles.get(tool_call["name"])
        if plan is None or role is None:
            return None
        chain = self.chain(plan.scenario)
        call = ToolCall(name=role, args=dict(tool_call["args"]))
        if request.tool is not None:
            why = refusal(chain, request.tool, role)
            if why is not None:
                raise UsageError(why)
        ctx = plan.fault_context(_calls_before(request.state, tool_call["name"]),
                                 environment=environment_of(request.tool),
                                 caller=session_of(request.tool))
        call, applied = chain.prepare(call, ctx)
        overrides: dict[str, Any] = {"tool_call": {**tool_call, "args": call.args}}
        if not call.conditions.healthy:
            state = request.state if isinstance(request.state, dict) else {}
            overrides["state"] = {**state,
                                  CONDITIONS_STATE_KEY: call.conditions.model_dump(mode="json")}
        return chain, request.override(**overrides), applied, ctx


def _finish(chain: ToolChain, applied: _Applied, ctx: FaultContext,
            message: ToolMessage | Command) -> ToolMessage | Command:
    if not isinstance(message, ToolMessage):
        return message
    try:
        result = chain.finish(applied, parse_content(message.content), ctx)
    except FaultCannotAct as exc:
        raise UsageError(f"tool {message.name!r}: {exc}") from None
    return message.model_copy(update={"content": _render(result)})


def _calls_before(state: Any, tool_name: str) -> int:
    """Earlier calls of this tool in the run: the attempt number of this one. A harness that
    calls the tool again within one tool call (a retry) says so with ATTEMPT_STATE_KEY."""
    if isinstance(state, dict) and isinstance(state.get(ATTEMPT_STATE_KEY), int):
        return int(state[ATTEMPT_STATE_KEY])
    messages = state.get("messages", []) if isinstance(state, dict) else []
    return sum(1 for m in messages if isinstance(m, ToolMessage) and m.name == tool_name)


def refusal(chain: ToolChain, tool: BaseTool, role: str) -> str | None:
    """Why ``chain``'s faults cannot act on ``tool`` playing ``role``, in one line, or None.

    A fault that changes the endpoint's state needs a tool that reads EndpointConditions
    (metadata flag :data:`HONOURS_CONDITIONS`, as :func:`policy_tools` sets); one that
    chooses from the environment's state needs a tool that carries its PolicyEnvironment."""
    call = ToolCall(name=role, args={})
    acting = [f for f in chain.faults if f.applies_to(call)]
    state = [f.name for f in acting if f.needs_endpoint
             and not (tool.metadata or {}).get(HONOURS_CONDITIONS)]
    if state:
        return (f"scenario {chain.scenario.name!r}: fault {', '.join(state)} changes the "
                f"endpoint's state (index snapshot, access, sessions), which tool "
                f"{tool.name!r} cannot honour; serve the role {role!r} with "
                "middleware.policy_tools(env), or put your retriever under the faults with "
                "simulator.agents.FaultyRetriever (docs/middleware.md)")
    chooses = [f.name for f in acting if f.steps.needs_environment
               and not isinstance(tool, PolicyTool)]
    if chooses and chain.environment is None:
        return (f"scenario {chain.scenario.name!r}: fault {', '.join(chooses)} chooses from "
                f"the policy environment's state, which tool {tool.name!r} does not carry; "
                f"serve the role {role!r} with middleware.policy_tools(env) "
                "(docs/middleware.md)")
    return None


def parse_content(content: Any) -> ToolResult | Any:
    """A tool message's content as the JSON it carries (empty: None; not JSON: the text)."""
    if isinstance(content, str):
        if not content.strip():
            return None
        try:
            return json.loads(content)
        except ValueError:
            return content
    return content


def _render(result: Any) -> Any:
    if result is None:
        return ""
    if isinstance(result, str):
        return result
    return json.dumps(result)
