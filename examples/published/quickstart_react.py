"""LangGraph's quickstart agent, a hand-built ReAct loop, in its published shape, under
layerrag.

    layerrag run --agent examples.published.quickstart_react:build_agent --tasks 24 --out runs/qs

Source: the LangGraph quickstart, "Use the Graph API",
docs.langchain.com/oss/python/langgraph/quickstart: its own ``MessagesState`` (messages
added with ``operator.add`` and an ``llm_calls`` counter), an ``llm_call`` node with a
system message, a hand-written ``tool_node`` that calls ``tool.invoke(args)`` for each tool
call, and a ``should_continue`` edge; it ends with the model's last message, in prose. It
installs no middleware, so only the tools can carry layerrag's harness.

What differs from the quickstart, and nothing else (the three lines marked
``# layerrag:``):

- the factory around it: layerrag calls ``build_agent(model, tools, middleware)`` once per
  run; its chat model is the quickstart's ``llm`` (for ``init_chat_model(...)``);
- the tools are the two layerrag hands the factory (``search_policies`` and
  ``fetch_document``) instead of the calculator's ``add`` / ``multiply`` / ``divide``;
- the system message asks for policy answers instead of arithmetic.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from langchain.messages import AnyMessage, SystemMessage, ToolMessage
from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class MessagesState(TypedDict):
    messages: Annotated[list[AnyMessage], operator.add]
    llm_calls: int


def build_agent(model: Any, tools: Sequence[Any], middleware: Sequence[Any]) -> Any:
    """The quickstart's graph with layerrag's tools."""
    llm = model  # layerrag: the model under test

    # Augment the LLM with tools
    tools = list(tools)  # layerrag: the tools layerrag hands the factory
    tools_by_name = {tool.name: tool for tool in tools}
    llm_with_tools = llm.bind_tools(tools)

    def llm_call(state: dict):
        """LLM decides whether to call a tool or not"""

        return {
            "messages": [
                llm_with_tools.invoke(
                    [
                        SystemMessage(
                            content="You are a helpful assistant tasked with answering policy questions."  # layerrag:
                        )
                    ]
                    + state["messages"]
                )
            ],
            "llm_calls": state.get('llm_calls', 0) + 1
        }

    def tool_node(state: dict):
        """Performs the tool call"""

        result = []
        for tool_call in state["messages"][-1].tool_calls:
            tool = tools_by_name[tool_call["name"]]
            observation = tool.invoke(tool_call["args"])
            result.append(ToolMessage(content=observation, tool_call_id=tool_call["id"]))
        return {"messages": result}

    def should_continue(state: MessagesState) -> Literal["tool_node", END]:
        """Decide if we should continue the loop or stop based upon whether the LLM made a
        tool call"""

        messages = state["messages"]
        last_message = messages[-1]
        # If the LLM makes a tool call, then perform an action
        if last_message.tool_calls:
            return "tool_node"
        # Otherwise, we stop (reply to the user)
        return END

    # Build workflow
    agent_builder = StateGraph(MessagesState)

    # Add nodes
    agent_builder.add_node("llm_call", llm_call)
    agent_builder.add_node("tool_node", tool_node)

    # Add edges to connect nodes
    agent_builder.add_edge(START, "llm_call")
    agent_builder.add_conditional_edges(
        "llm_call",
        should_continue,
        ["tool_node", END]
    )
    agent_builder.add_edge("tool_node", "llm_call")

    # Compile the agent
    agent = agent_builder.compile()
    return agent
