"""Agent preflight: build the agent under test and run one probe record before the matrix.

A factory that raises or returns something that cannot be run, and an agent whose probe
record (clean scenario, first task, first contract mode, uncontrolled arm) raises, loops,
times out, calls none of its tools or submits nothing readable, would otherwise fill a run
directory with thousands of identical broken records. Here it is one line naming the cause
and exit 2, before anything is written, as the provider preflight does for a server.

The probe always runs offline, with the deterministic tool-calling model: it checks the
agent's wiring, costs no provider call, and tells whether the graph must be invoked
synchronously (a middleware with only the sync hooks makes LangChain refuse ``ainvoke``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from simulator.agents.episode import arun_tool_agent, described
from simulator.agents.harness import ToolRunContext
from simulator.agents.registry import AgentSpec
from simulator.errors import LayerragError, UsageError

_SYNC_ONLY = "the agent raised NotImplementedError: Asynchronous implementation of"
"""How a record reads when LangChain refused ``ainvoke`` for a sync-only middleware."""


def built_graph(spec: AgentSpec, model: Any, tools: Sequence[Any],
                middleware: Sequence[Any]) -> Any:
    """``spec``'s factory called with these arguments; a runnable graph or a UsageError."""
    assert spec.factory is not None  # tool-calling agents have one
    try:
        graph = spec.factory(model, tools, middleware)
    except LayerragError:
        raise
    except Exception as exc:
        raise UsageError(f"--agent {spec.name}: the factory raised {described(exc)}"
                         ) from None
    if not any(callable(getattr(graph, name, None)) for name in ("ainvoke", "invoke")):
        what = "None" if graph is None else f"a {type(graph).__name__}"
        raise UsageError(f"--agent {spec.name}: the factory returned {what}, not a runnable "
                         "graph (a compiled LangGraph graph, or anything with invoke/ainvoke)")
    return graph


async def probe(spec: AgentSpec, graph: Any, context: Callable[[], ToolRunContext], *,
                timeout: float | None) -> bool:
    """Run the probe record; return whether the graph must be invoked synchronously.

    ``context`` makes a fresh run context per attempt (an attempt leaves its recorder
    behind). Raises a UsageError naming the cause when the probe is an agent or reader
    error.
    """
    sync = not callable(getattr(graph, "ainvoke", None))
    episode = await arun_tool_agent(graph, context(), timeout=timeout, sync=sync)
    if not sync and str(episode["terminated"] or "").startswith(_SYNC_ONLY):
        sync = True
        episode = await arun_tool_agent(graph, context(), timeout=timeout, sync=True)
    result = episode["reader_result"]
    if result is not None and (result.agent_error or result.reader_error):
        why = episode["terminated"] or result.answer.reason or "no readable answer"
        raise UsageError(f"--agent {spec.name}: the probe record (clean scenario, first task) "
                         f"failed: {why}; nothing was run")
    return sync
