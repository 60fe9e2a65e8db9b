"""The tools a tool-calling agent is handed carry layerrag's harness themselves.

Each call of ``search_policies`` or ``fetch_document`` runs, inside the tool, what
simulator/agents/harness.py describes (outermost first): the arm's policy gate, the
contract step and the recording, the scenario's faults, then the endpoint. So the same
records come from every way a graph can call a tool: ``create_agent``, a hand-built
``StateGraph`` with a ``ToolNode``, the functional API's ``@task``, or a plain loop that
calls ``tool.invoke({"query": ...})``. Nothing has to be installed in the graph; a graph
built without the factory's ``middleware`` list is still faulted and recorded.

Which record a call belongs to comes from :func:`running`, a context variable the runner
sets around each record's invoke: asyncio tasks and LangGraph's executor threads copy it,
so it reaches every tool call of that record and no other. The tools hold no per-record
state; one set serves every record of a run concurrently.

A policy that abstains or rejects ends the record (its non-answer is what is scored,
whatever the agent does next). ``create_agent`` graphs stop at once through the middleware
handed to the factory (:class:`PolicyStopMiddleware`); a
hand-built graph stops by routing with :func:`tools_condition` (LangGraph's, plus the stop)
or by asking :func:`policy_stopped`; a tool called after the stop answers with an error and
calls nothing.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator
from typing import Any

from langchain.agents.middleware import AgentMiddleware, ToolCallRequest, hook_config
from langchain.tools import ToolRuntime
from langchain_core.messages import ToolMessage
from langchain_core.tools import BaseTool, StructuredTool, ToolException
from langgraph.types import Command

from middleware.adapters.langchain_agent import FaultInjectionMiddleware
from middleware.adapters.langchain_tools import (
    ATTEMPT_STATE_KEY,
    PolicyTool,
    environment_of,
    session_of,
)
from simulator.agents.harness import (
    CALL_STATE_KEY,
    MESSAGE_CHARS,
    POLICY_PREFIX,
    PolicyGateMiddleware,
    RecordedCall,
    RecordingMiddleware,
    ToolRunContext,
    recorder_of,
)
from simulator.errors import UsageError

_current: contextvars.ContextVar[ToolRunContext | None] = contextvars.ContextVar(
    "layerrag_run", default=None)
_GATE, _RECORDING, _FAULTS = PolicyGateMiddleware(), RecordingMiddleware(), \
    FaultInjectionMiddleware()


@contextlib.contextmanager
def running(ctx: ToolRunContext) -> Iterator[None]:
    """Every harnessed tool call made within (and in tasks and threads started within)
    belongs to ``ctx``'s record."""
    token = _current.set(ctx)
    try:
        yield
    finally:
        _current.reset(token)


def current_run() -> ToolRunContext | None:
    """The run context of the record being run here, or None outside a layerrag run."""
    return _current.get()


def policy_stopped() -> str | None:
    """Why a policy ended the current record (``abstain: reason``), or None: a hand-built
    graph asks this before calling its model again (docs/agents.md)."""
    ctx = _current.get()
    return recorder_of(ctx).terminated if ctx is not None else None


def tools_condition(state: Any, messages_key: str = "messages") -> str:
    """LangGraph's ``tools_condition`` that also ends the graph once a policy ended the
    record: a drop-in for ``add_conditional_edges("agent", tools_condition)``."""
    from langgraph.graph import END
    from langgraph.prebuilt import tools_condition as langgraph_tools_condition

    if policy_stopped() is not None:
        return END
    return str(langgraph_tools_condition(state, messages_key))


class PolicyStopMiddleware(AgentMiddleware):
    """End a ``create_agent`` run before its next model call once a policy ended the
    record: the one piece of the harness that lives in the graph (the rest is inside the
    tools, above). Without it the record is scored the same (the
    policy's non-answer); the model is only called for nothing."""

    @hook_config(can_jump_to=["end"])
    def before_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        ctx = getattr(runtime, "context", None)
        ctx = ctx if isinstance(ctx, ToolRunContext) else current_run()
        if ctx is not None and recorder_of(ctx).terminated is not None:
            return {"jump_to": "end"}
        return None

    @hook_config(can_jump_to=["end"])
    async def abefore_model(self, state: Any, runtime: Any) -> dict[str, Any] | None:
        return self.before_model(state, runtime)


def harnessed_tools(tools: list[BaseTool]) -> list[BaseTool]:
    """``tools`` (layerrag's endpoint tools, :func:`middleware.policy_tools`), each with the
    harness inside it."""
    return [_harnessed(tool) for tool in tools]


def _harnessed(raw: BaseTool) -> BaseTool:
    assert isinstance(raw, StructuredTool) and raw.func is not None and \
        raw.coroutine is not None  # policy_tools' tools have both

    def call(**args: Any) -> str:
        ctx, stopped = _begin(raw.name)
        entry = _recorded(ctx, raw.name, args)
        if stopped is not None:
            raise _told(entry, ToolException(stopped))
        message = _GATE.wrap_tool_call(_request(ctx, raw, args, entry),
                                       _through_recording_sync)
        return _content(message, entry)

    async def acall(**args: Any) -> str:
        ctx, stopped = _begin(raw.name)
        entry = _recorded(ctx, raw.name, args)
        if stopped is not None:
            raise _told(entry, ToolException(stopped))
        message = await _GATE.awrap_tool_call(_request(ctx, raw, args, entry),
                                              _through_recording_async)
        return _content(message, entry)

    # A PolicyTool, so that it still says which environment it searches (corpus_documents,
    # FaultyRetriever); without the conditions flag: it applies its faults itself.
    return PolicyTool.from_function(call, coroutine=acall, name=raw.name,
                                    description=raw.description, args_schema=raw.args_schema,
                                    handle_tool_error=True, environment=environment_of(raw),
                                    session=session_of(raw))


def _begin(name: str) -> tuple[ToolRunContext, str | None]:
    ctx = _current.get()
    if ctx is None:
        raise UsageError(f"layerrag's {name} tool was called outside a layerrag run: it "
                         "runs under `layerrag run --agent` or simulator.testing.evaluate")
    terminated = recorder_of(ctx).terminated
    if terminated is None:
        return ctx, None
    return ctx, (f"{POLICY_PREFIX}: the run was ended ({terminated}); no tool answers now")


def _recorded(ctx: ToolRunContext, name: str, args: dict[str, Any]) -> RecordedCall:
    """A new entry of the record's trajectory for this call (its arguments without the
    session, which is the caller's own and the same on every call)."""
    entry = RecordedCall(tool=name, args={k: v for k, v in args.items() if k != "session"})
    recorder = recorder_of(ctx)
    with recorder._lock:
        recorder.calls.append(entry)
    return entry


def _told(entry: RecordedCall, error: ToolException) -> ToolException:
    entry.content, entry.error = str(error)[:MESSAGE_CHARS], True
    return error


def _request(ctx: ToolRunContext, raw: BaseTool, args: dict[str, Any],
             entry: RecordedCall | None = None) -> ToolCallRequest:
    """The tool call as LangChain's tool middleware sees one: the harness middleware
    (simulator/agents/harness.py, middleware.FaultInjectionMiddleware) runs on it as is.
    ``entry`` rides in the state, for the recording middleware to add its searches to."""
    attempt = recorder_of(ctx).tool_calls.count(raw.name)
    state: dict[str, Any] = {ATTEMPT_STATE_KEY: attempt}
    if entry is not None:
        state[CALL_STATE_KEY] = entry
    call_id = f"layerrag-{raw.name}-{attempt}"
    runtime: Any = ToolRuntime(state=state, context=ctx, config={}, stream_writer=_ignore,
                               tool_call_id=call_id, store=None)
    return ToolCallRequest(tool_call={"name": raw.name, "args": dict(args), "id": call_id,
                                      "type": "tool_call"},
                           tool=raw, state=state, runtime=runtime)


def _ignore(_: Any) -> None:
    return None


def _through_recording_sync(request: ToolCallRequest) -> ToolMessage | Command:
    return _RECORDING.wrap_tool_call(
        request, lambda r: _FAULTS.wrap_tool_call(r, _endpoint_sync))


async def _through_recording_async(request: ToolCallRequest) -> ToolMessage | Command:
    async def faulted(r: ToolCallRequest) -> ToolMessage | Command:
        return await _FAULTS.awrap_tool_call(r, _endpoint_async)

    return await _RECORDING.awrap_tool_call(request, faulted)


def _endpoint_sync(request: ToolCallRequest) -> ToolMessage:
    func: Callable[..., Any] = request.tool.func  # type: ignore[union-attr]
    return _message(request, func(**request.tool_call["args"], runtime=request.runtime))


async def _endpoint_async(request: ToolCallRequest) -> ToolMessage:
    coroutine: Callable[..., Any] = request.tool.coroutine  # type: ignore[union-attr]
    return _message(request, await coroutine(**request.tool_call["args"],
                                             runtime=request.runtime))


def _message(request: ToolCallRequest, content: Any) -> ToolMessage:
    return ToolMessage(content=content, name=request.tool_call["name"],
                       tool_call_id=request.tool_call["id"])


def _content(message: ToolMessage | Command, entry: RecordedCall | None = None) -> str:
    """What the agent gets: the content, or a ToolException for an error message (the
    tool's ``handle_tool_error`` turns it into an error ToolMessage under a ToolNode, and
    into the same text under a plain ``tool.invoke``); ``entry`` records it."""
    if not isinstance(message, ToolMessage):
        raise TypeError(f"the harness returned {type(message).__name__}, not a ToolMessage")
    content = message.content if isinstance(message.content, str) else str(message.content)
    if entry is not None:
        entry.content, entry.error = content[:MESSAGE_CHARS], message.status == "error"
    if message.status == "error":
        raise ToolException(content)
    return content
