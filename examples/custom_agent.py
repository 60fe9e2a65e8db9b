"""Bring your own agent: a factory layerrag can score on the whole matrix.

Run it under every scenario, contract mode and arm:

    layerrag run --agent examples.custom_agent:build_agent --tasks 24 --out runs/custom

layerrag calls ``build_agent(model, tools, middleware)`` once per run and invokes the graph
it returns once per record, with ``{"messages": [the task]}`` and ``context=`` the record's
run context. It passes:

- ``model``: the chat model of ``--model`` (offline: a deterministic tool-calling model);
- ``tools``: ``search_policies`` and ``fetch_document`` over the scenario's environment,
  each carrying layerrag's harness inside it (the scenario's faults, the contract mode,
  the recording the scorer reads, the arm's policies), whatever graph calls them;
- ``middleware``: one middleware that ends a ``create_agent`` run once a policy ended the
  record (docs/agents.md); install it with yours.

This agent is not ``create_agent`` with defaults: it has its own system prompt, rewrites
every search query into keywords before it reaches the search tool, and answers through
layerrag's ``FinalAnswer`` schema so its citations and abstentions are scored exactly.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware import AgentMiddleware, ToolCallRequest
from langchain.agents.structured_output import ToolStrategy

from simulator.agents import FinalAnswer, ToolRunContext

SYSTEM_PROMPT = (
    "You are the policy desk of an enterprise. Search before you answer, answer only from "
    "what the search returned, cite doc_ids, and abstain rather than guess.")

_QUESTION_WORDS = re.compile(
    r"\b(what|which|who|whom|how|long|many|much|is|are|does|do|the|a|an|of|for|to|our|"
    r"under|policy|current)\b|[?]", re.IGNORECASE)


def keywords(question: str) -> str:
    """A keyword query: the question without question words and punctuation."""
    return " ".join(_QUESTION_WORDS.sub(" ", question).split())


class RewriteSearchQuery(AgentMiddleware):
    """Send the search tool keywords instead of the model's full sentence."""

    def wrap_tool_call(self, request: ToolCallRequest, handler: Callable[..., Any]) -> Any:
        return handler(self._rewritten(request))

    async def awrap_tool_call(self, request: ToolCallRequest, handler: Callable[..., Any]
                              ) -> Any:
        return await handler(self._rewritten(request))

    @staticmethod
    def _rewritten(request: ToolCallRequest) -> ToolCallRequest:
        call = request.tool_call
        if call["name"] != "search_policies" or "query" not in call["args"]:
            return request
        query = keywords(str(call["args"]["query"])) or call["args"]["query"]
        return request.override(tool_call={**call, "args": {**call["args"], "query": query}})


def build_agent(model: Any, tools: Sequence[Any], middleware: Sequence[Any]) -> Any:
    """A create_agent agent with its own prompt and a query-rewriting step."""
    return create_agent(
        model, tools=list(tools), system_prompt=SYSTEM_PROMPT,
        middleware=[*middleware, RewriteSearchQuery()],
        context_schema=ToolRunContext, response_format=ToolStrategy(FinalAnswer))
