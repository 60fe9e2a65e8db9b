"""Fault-injecting middleware: one fault per operational layer, scenarios, contract modes.

Three ways to use the faults:

(a) layerrag's own agent::

    env = PolicyEnvironment.from_corpus(corpus)
    chain = build_tool_chain(get_scenario("stale_index"), env)
    raw = chain.invoke(ToolCall(name="search_policies", args={...}), FaultContext(...))
    result = check_contract(raw, mode="repair")

(b) any LangChain ``create_agent`` agent: :class:`FaultInjectionMiddleware`
    (``middleware.adapters.langchain_agent``), the per-run :class:`FaultPlan` in ``context``;
(c) any plain tool callable: :func:`with_faults` (``middleware.adapters.plain_tool``).

The adapters are imported on first use, so importing ``middleware`` does not load LangChain.
"""

from __future__ import annotations

from typing import Any

from middleware.chain import ToolChain, build_tool_chain, environment_endpoint
from middleware.contract import CONTRACT_MODES, ContractResult, check_contract
from middleware.faults import FaultFactory, fault, faults, get_fault
from middleware.scenarios import (
    SCENARIO_NAMES,
    FaultSpec,
    Scenario,
    add_scenario,
    compose,
    get_scenario,
    scenarios,
)
from middleware.types import Fault, FaultContext, FaultSteps, ToolCall, ToolResult
from simulator.vocabulary import LAYERS, Layer

_LAZY = {
    "FaultInjectionMiddleware": "middleware.adapters.langchain_agent",
    "FaultPlan": "middleware.adapters.plan",
    "policy_tools": "middleware.adapters.langchain_tools",
    "with_faults": "middleware.adapters.plain_tool",
    "FaultyTool": "middleware.adapters.plain_tool",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'middleware' has no attribute {name!r}")


__all__ = [
    "CONTRACT_MODES", "ContractResult", "Fault", "FaultContext", "FaultFactory",
    "FaultInjectionMiddleware", "FaultPlan", "FaultSpec", "FaultSteps", "FaultyTool", "LAYERS",
    "Layer", "SCENARIO_NAMES", "Scenario", "ToolCall", "ToolChain", "ToolResult",
    "add_scenario", "build_tool_chain", "check_contract", "compose", "environment_endpoint",
    "fault", "faults", "get_fault", "get_scenario", "policy_tools", "scenarios",
    "with_faults",
]
