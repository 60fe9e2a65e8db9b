"""The ``react`` agent: LangChain's ``create_agent`` with layerrag's two tools, the harness
middleware and a structured final answer.

It is also the reference implementation of the agent factory protocol
(:class:`simulator.agents.registry.AgentFactory`): a user's own factory receives the same
three things and returns a graph that runs the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware import AgentMiddleware
from langchain.agents.structured_output import ToolStrategy
from langchain_core.language_models import BaseChatModel
from langchain_core.tools import BaseTool

from simulator.agents.answer import FinalAnswer
from simulator.agents.harness import ToolRunContext
from simulator.agents.prompt import SYSTEM_PROMPT


def build_react_agent(model: BaseChatModel, tools: Sequence[BaseTool],
                      middleware: Sequence[AgentMiddleware]) -> Any:
    """``create_agent`` with the tools, the middleware (outermost first), the system prompt
    and ``FinalAnswer`` as a tool-strategy response format.

    ``ToolStrategy`` rather than a provider's native schema: every chat model that calls
    tools can submit it, including local servers whose native structured output differs
    (llama.cpp, vLLM), and an invalid submission is sent back to the model to correct.
    """
    return create_agent(model, tools=list(tools), system_prompt=SYSTEM_PROMPT,
                        middleware=list(middleware), context_schema=ToolRunContext,
                        response_format=ToolStrategy(FinalAnswer))
