"""Agents that break in every way the issue tracker has seen, as factories for
``--agent tests.agents.broken_agents:NAME``, and middleware with only one kind of hook.

Each is written as a user would write it: a real ``create_agent`` graph (or the wrong thing
a factory might return), no knowledge of layerrag's internals beyond the factory protocol.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware import AgentMiddleware, ToolCallRequest
from langchain.agents.structured_output import ToolStrategy
from langchain_core.messages import AIMessage
from langchain_core.tools import BaseTool, tool

from simulator.agents import FinalAnswer, ToolRunContext


def _agent(model: Any, tools: Sequence[BaseTool], middleware: Sequence[Any],
           *extra: AgentMiddleware) -> Any:
    return create_agent(model, tools=list(tools), middleware=[*middleware, *extra],
                        context_schema=ToolRunContext, response_format=ToolStrategy(FinalAnswer))


class _Raise(AgentMiddleware):
    def before_model(self, state: Any, runtime: Any) -> None:
        raise RuntimeError("my agent is broken")

    async def abefore_model(self, state: Any, runtime: Any) -> None:
        self.before_model(state, runtime)


def raises(model: Any, tools: Sequence[BaseTool], middleware: Sequence[Any]) -> Any:
    """Every run raises."""
    return _agent(model, tools, middleware, _Raise())


def returns_none(model: Any, tools: Sequence[BaseTool], middleware: Sequence[Any]) -> Any:
    """Forgets to return the graph."""
    _agent(model, tools, middleware)


def returns_string(model: Any, tools: Sequence[BaseTool], middleware: Sequence[Any]) -> Any:
    """Returns a name instead of a graph."""
    return "my_agent"


def factory_raises(model: Any, tools: Sequence[BaseTool], middleware: Sequence[Any]) -> Any:
    """Cannot even be built."""
    raise ValueError("no such index: my_vectors")


def loops(model: Any, tools: Sequence[BaseTool], middleware: Sequence[Any]) -> Any:
    """Fetches documents forever: past the step budget."""
    from simulator.agents.tool_model import DeterministicToolCallingModel

    class Looping(DeterministicToolCallingModel):
        def _next(self, messages: list[Any], tools: Any, tool_choice: Any = None) -> AIMessage:
            return self._call(messages, "fetch_document", {"doc_id": f"d{len(messages)}"})

    return _agent(Looping(), tools, middleware)


def sleeps(model: Any, tools: Sequence[BaseTool], middleware: Sequence[Any]) -> Any:
    """Its search tool takes 30 s: longer than any test's record time limit."""
    search = next(t for t in tools if t.name == "search_policies")

    @tool
    def search_policies(query: str) -> str:
        """Search the policies."""
        time.sleep(30)
        return str(search.invoke({"query": query}))

    return _agent(model, [search_policies], middleware)


def calls_no_tool(model: Any, tools: Sequence[BaseTool], middleware: Sequence[Any]) -> Any:
    """Answers from its own knowledge: given no tools at all."""
    return _agent(model, [], middleware)


_runs = {"n": 0}


class _BreakAfterFirst(AgentMiddleware):
    def before_agent(self, state: Any, runtime: Any) -> None:
        _runs["n"] += 1
        if _runs["n"] > 1:
            raise RuntimeError("my agent is broken")

    async def abefore_agent(self, state: Any, runtime: Any) -> None:
        self.before_agent(state, runtime)


def breaks_after_the_probe(model: Any, tools: Sequence[BaseTool],
                           middleware: Sequence[Any]) -> Any:
    """Runs once (the preflight probe passes), then raises on every record."""
    _runs["n"] = 0
    return _agent(model, tools, middleware, _BreakAfterFirst())


# -- middleware with one kind of hook ---------------------------------------------------


class SyncOnlyQueryRewrite(AgentMiddleware):
    """Only ``wrap_tool_call``, the common case: LangChain refuses ``ainvoke`` with it."""

    def wrap_tool_call(self, request: ToolCallRequest, handler: Callable[..., Any]) -> Any:
        return handler(_lowercased(request))


class AsyncOnlyQueryRewrite(AgentMiddleware):
    """Only ``awrap_tool_call``: LangChain refuses ``invoke`` with it."""

    async def awrap_tool_call(self, request: ToolCallRequest,
                              handler: Callable[..., Any]) -> Any:
        return await handler(_lowercased(request))


REWRITES: list[str] = []
"""Every query a one-hook middleware rewrote, in order (so a test can see it ran)."""


def _lowercased(request: ToolCallRequest) -> ToolCallRequest:
    call = request.tool_call
    REWRITES.append(type(request).__name__)
    if "query" not in call["args"]:
        return request
    args = {**call["args"], "query": str(call["args"]["query"]).lower()}
    return request.override(tool_call={**call, "args": args})


def sync_only(model: Any, tools: Sequence[BaseTool], middleware: Sequence[Any]) -> Any:
    """A user middleware with only the sync hook."""
    return _agent(model, tools, middleware, SyncOnlyQueryRewrite())


def async_only(model: Any, tools: Sequence[BaseTool], middleware: Sequence[Any]) -> Any:
    """A user middleware with only the async hook."""
    return _agent(model, tools, middleware, AsyncOnlyQueryRewrite())
