"""Agents of every graph shape, written as their authors publish them: none installs the
``middleware`` list, so only the tools can carry layerrag's harness (issue 26)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langchain_core.tools import BaseTool
from langgraph.graph import END, START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition

from simulator.agents import FinalAnswer


def hand_built(model: Any, tools: Sequence[BaseTool], middleware: Sequence[Any]) -> Any:
    """The LangGraph quickstart's ReAct loop: a StateGraph with a ToolNode, which has
    nowhere to put the middleware list; FinalAnswer is one more tool it binds."""
    bound = model.bind_tools([*tools, FinalAnswer])

    def call_model(state: MessagesState) -> dict[str, Any]:
        return {"messages": [bound.invoke(state["messages"])]}

    def route(state: MessagesState) -> str:
        last = state["messages"][-1]
        if any(c["name"] == "FinalAnswer" for c in getattr(last, "tool_calls", None) or []):
            return END
        return str(tools_condition(state))

    graph = StateGraph(MessagesState)
    graph.add_node("agent", call_model)
    graph.add_node("tools", ToolNode(list(tools)))
    graph.add_edge(START, "agent")
    graph.add_conditional_edges("agent", route)
    graph.add_edge("tools", "agent")
    return graph.compile()


class _PlainLoop:
    """A plain Python loop: model, then ``tool.invoke(args)`` for each call, until the
    model submits FinalAnswer."""

    def __init__(self, model: Any, tools: Sequence[BaseTool]) -> None:
        self.bound = model.bind_tools([*tools, FinalAnswer])
        self.tools = {t.name: t for t in tools}

    def invoke(self, inputs: dict[str, Any], **_: Any) -> dict[str, Any]:
        messages: list[BaseMessage] = list(inputs["messages"])
        for _step in range(10):
            reply: AIMessage = self.bound.invoke(messages)
            messages.append(reply)
            for call in reply.tool_calls:
                if call["name"] == "FinalAnswer":
                    return {"messages": messages,
                            "structured_response": FinalAnswer.model_validate(call["args"])}
                result = self.tools[call["name"]].invoke(call["args"])
                messages.append(ToolMessage(result, name=call["name"],
                                            tool_call_id=call["id"]))
        return {"messages": messages}


def plain_loop(model: Any, tools: Sequence[BaseTool], middleware: Sequence[Any]) -> Any:
    """A loop with no LangGraph at all."""
    return _PlainLoop(model, tools)


def functional(model: Any, tools: Sequence[BaseTool], middleware: Sequence[Any]) -> Any:
    """LangGraph's functional API, as its ReAct how-to writes it: an ``@entrypoint`` that
    loops over ``@task`` s calling the model and each tool (``tool.invoke(tool_call)``)."""
    from langgraph.func import entrypoint, task
    from langgraph.graph.message import add_messages

    bound = model.bind_tools([*tools, FinalAnswer])
    tools_by_name = {t.name: t for t in tools}

    @task
    def call_model(messages: list[BaseMessage]) -> AIMessage:
        return bound.invoke(messages)

    @task
    def call_tool(tool_call: Any) -> ToolMessage:
        return tools_by_name[tool_call["name"]].invoke(tool_call)

    @entrypoint()
    def agent(inputs: dict[str, Any]) -> dict[str, Any]:
        messages: list[BaseMessage] = list(inputs["messages"])
        response = call_model(messages).result()
        for _step in range(10):
            final = [c for c in response.tool_calls if c["name"] == "FinalAnswer"]
            if final or not response.tool_calls:
                break
            results = [call_tool(c).result() for c in response.tool_calls]
            messages = add_messages(messages, [response, *results])
            response = call_model(messages).result()
        messages = add_messages(messages, response)
        if final:
            return {"messages": messages,
                    "structured_response": FinalAnswer.model_validate(final[0]["args"])}
        return {"messages": messages}

    return agent
