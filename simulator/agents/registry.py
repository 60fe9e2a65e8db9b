"""Agents under test, by name: ``pipeline``, ``react``, or a user's ``MODULE:CALLABLE``.

A tool-calling agent is built by an :class:`AgentFactory`: it receives the chat model, the
two tools (``search_policies``, ``fetch_document``) and the middleware layerrag wants
installed (outermost first: the arm's policies, the recorder with the contract step, the
scenario's faults), and returns a compiled LangGraph graph that accepts
``{"messages": [...]}`` with ``context=`` the run's :class:`~simulator.agents.harness.
ToolRunContext`. If the graph was built with ``response_format=FinalAnswer`` its final
state's ``structured_response`` is the answer; otherwise the last AI message's text is
read as one (JSON) or as prose by the task's answer format (simulator/answers/prose.py,
docs/agents.md). ``pipeline`` is the paper's fixed graph and is not built this way.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from simulator.errors import UsageError
from simulator.registry import Registry
from simulator.vocabulary import DEFAULT_AGENT

AgentFactory = Callable[[Any, Sequence[Any], Sequence[Any]], Any]
"""``factory(model, tools, middleware) -> compiled graph`` (see the module docstring)."""

AgentKind = Literal["pipeline", "tool_calling"]


@dataclass(frozen=True)
class AgentSpec:
    """A registered agent: its name, kind, factory and one line of description."""

    name: str
    kind: AgentKind
    description: str
    factory: AgentFactory | None = None


def _react_factory(model: Any, tools: Sequence[Any], middleware: Sequence[Any]) -> Any:
    from simulator.agents.react import build_react_agent

    return build_react_agent(model, tools, middleware)


agents: Registry[AgentSpec] = Registry("agent")
agents.add(DEFAULT_AGENT, AgentSpec(
    DEFAULT_AGENT, "pipeline",
    "the paper's fixed graph: retrieve -> contract -> policy gate -> generate"))
agents.add("react", AgentSpec(
    "react", "tool_calling",
    "LangChain create_agent with search_policies and fetch_document and a structured "
    "final answer; offline it is driven by a deterministic tool-calling model",
    _react_factory))


def resolve_agent(name: str) -> AgentSpec:
    """The registered agent ``name``, or a user's factory given as ``MODULE:CALLABLE``
    (the current directory is importable, as for ``python -m``)."""
    if name in agents or ":" not in name:
        return agents.get(name)
    module_name, _, attr = name.partition(":")
    if not module_name or not attr:
        raise UsageError(f"--agent {name!r}: write a user agent as MODULE:CALLABLE, e.g. "
                         "examples.custom_agent:build_agent")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UsageError(f"--agent {name!r}: cannot import module {module_name!r} "
                         f"({exc})") from None
    factory = getattr(module, attr, None)
    if not callable(factory):
        raise UsageError(f"--agent {name!r}: module {module_name!r} has no callable "
                         f"{attr!r}")
    try:
        inspect.signature(factory).bind(None, (), ())
    except TypeError:
        raise UsageError(f"--agent {name!r}: {attr} must accept (model, tools, middleware)"
                         ) from None
    doc = (inspect.getdoc(factory) or "").splitlines()
    return AgentSpec(name, "tool_calling", doc[0] if doc else "a user's agent factory",
                     factory)
