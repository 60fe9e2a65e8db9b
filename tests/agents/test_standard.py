"""LangChain's own standard unit tests for the deterministic tool-calling model and the two
policy tools (langchain-tests)."""

from __future__ import annotations

import functools
from typing import Any

from langchain_core.tools import BaseTool
from langchain_tests.unit_tests import ChatModelUnitTests, ToolsUnitTests

from middleware import policy_tools
from simulator.agents.tool_model import DeterministicToolCallingModel
from simulator.corpus import build_corpus
from simulator.endpoints import PolicyEnvironment


class TestDeterministicToolCallingModel(ChatModelUnitTests):
    @property
    def chat_model_class(self) -> type[DeterministicToolCallingModel]:
        return DeterministicToolCallingModel

    @property
    def chat_model_params(self) -> dict[str, Any]:
        # No provider, no key, no sampling: the model name is its only parameter.
        return {"model_name": "deterministic-tool-calling-1"}


@functools.cache
def _tools() -> dict[str, BaseTool]:
    return {t.name: t for t in policy_tools(PolicyEnvironment.from_corpus(build_corpus()))}


class TestSearchPoliciesTool(ToolsUnitTests):
    # An instance: the tools are built by policy_tools(env), not by a constructor.
    @property
    def tool_constructor(self) -> BaseTool:
        return _tools()["search_policies"]

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return {"query": "How long is the return window?"}


class TestFetchDocumentTool(ToolsUnitTests):
    @property
    def tool_constructor(self) -> BaseTool:
        return _tools()["fetch_document"]

    @property
    def tool_invoke_params_example(self) -> dict[str, Any]:
        return {"doc_id": "RET-01-v2"}
