"""layerrag's public face: what a user's agent, test suite or plugin imports.

Everything here is re-exported from ``simulator``, ``middleware`` and ``policies`` (which
stay, with their own names, for the code that builds on them); this module is the one
place a user needs to know, and its ``__all__`` is the supported API. Names are imported on
first use, so ``import layerrag`` loads neither LangChain nor the corpus.

    from layerrag import FinalAnswer, ToolRunContext, evaluate

    def build_agent(model, tools, middleware): ...
    result = evaluate(build_agent, scenarios=["clean", "stale_index"])
"""

from __future__ import annotations

import importlib
from typing import Any

_HOME = {
    # evaluating an agent
    "evaluate": "simulator.testing", "Evaluation": "simulator.testing",
    "UnmeasuredError": "simulator.testing",
    "RunConfig": "simulator.runner.config", "run_matrix": "simulator.runner.matrix",
    # the factory protocol: what a factory receives and returns
    "AgentFactory": "simulator.agents", "AgentSpec": "simulator.agents",
    "agents": "simulator.agents", "ToolRunContext": "simulator.agents",
    "FinalAnswer": "simulator.agents", "tools_condition": "simulator.agents",
    "policy_stopped": "simulator.agents", "current_run": "simulator.agents",
    "PolicyStopMiddleware": "simulator.agents",
    "DeterministicToolCallingModel": "simulator.agents",
    "DriverCannotAnswer": "simulator.agents",
    # tools and retrievers under the faults
    "policy_tools": "middleware", "FaultyRetriever": "simulator.agents",
    "corpus_documents": "simulator.agents", "FaultyVectorStore": "simulator.agents",
    "corpus_store": "simulator.agents", "HashingEmbeddings": "simulator.agents",
    "with_faults": "middleware",
    "FaultyTool": "middleware", "FaultInjectionMiddleware": "middleware",
    "FaultPlan": "middleware", "FaultContext": "middleware", "check_contract": "middleware",
    # your own faults, scenarios, policies, arms and readers
    "fault": "middleware", "Scenario": "middleware", "add_scenario": "middleware",
    "compose": "middleware", "policy": "policies", "add_arm": "policies",
    "readers": "simulator.readers.base",
    # the corpus and its endpoints
    "build_corpus": "simulator.corpus", "Corpus": "simulator.corpus",
    "PolicyEnvironment": "simulator.endpoints",
    # errors
    "LayerragError": "simulator.errors", "UsageError": "simulator.errors",
}

__all__ = sorted(_HOME)


def __getattr__(name: str) -> Any:
    if name in _HOME:
        value = getattr(importlib.import_module(_HOME[name]), name)
        globals()[name] = value  # later look-ups skip this hook
        return value
    raise AttributeError(f"module 'layerrag' has no attribute {name!r}")


def __dir__() -> list[str]:
    return __all__
