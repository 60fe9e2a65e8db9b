"""Agents under test: the registry (``pipeline``, ``react``, a user's ``MODULE:CALLABLE``),
the harness a tool-calling agent's tools carry (and the one middleware it is handed), the
deterministic tool-calling model that drives ``react`` offline, and the final-answer schema.

Names are imported on first use, so the registry (read by ``--help`` and config checks)
does not load LangChain's agent machinery. See docs/agents.md for the factory protocol.
"""

from __future__ import annotations

import importlib
from typing import Any

_HOME = {
    "ANSWER_TOOL": "answer", "FinalAnswer": "answer", "to_agent_answer": "answer",
    "PolicyGateMiddleware": "harness", "Recorder": "harness",
    "RecordingMiddleware": "harness", "ToolRunContext": "harness",
    "PolicyStopMiddleware": "tools", "current_run": "tools", "policy_stopped": "tools",
    "tools_condition": "tools",
    "disciplined": "live", "DisciplinedChatModel": "live",
    "AgentFactory": "registry", "AgentSpec": "registry", "agents": "registry",
    "resolve_agent": "registry",
    "DeterministicToolCallingModel": "tool_model", "DriverCannotAnswer": "tool_model",
    "FaultyRetriever": "retriever", "corpus_documents": "retriever",
    "FaultyVectorStore": "vector_store", "corpus_store": "vector_store",
    "HashingEmbeddings": "embeddings",
    "build_react_agent": "react",
}

__all__ = sorted(_HOME)


def __getattr__(name: str) -> Any:
    if name in _HOME:
        return getattr(importlib.import_module(f"simulator.agents.{_HOME[name]}"), name)
    raise AttributeError(f"module 'simulator.agents' has no attribute {name!r}")
