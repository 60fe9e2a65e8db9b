"""The layerrag agent as a LangGraph StateGraph, compiled once and reused for every record.

retrieve -> contract -> policy_gate -> generate -> finish, with two exits before a prompt
exists: the gate may abstain or reject, and the pipeline ends with a structured "unknown"
when retrieval is unavailable or invalid (missing output, access denied, a payload the strict
contract rejected), as in the paper. The ``open`` pipeline drops that second exit
(simulator/agent/pipelines.py).

One invoke carries a batch of independent episodes (one per record); each flows through
the nodes once, and a single agent run is a batch of one. LangGraph's cost is per node step,
not per episode, so batching keeps the graph's overhead small beside the work itself
(benchmarks/matrix.py). Per-record inputs that are not the agent's business (the fault plan,
the reader, the gate) ride in the runtime context, never in the state. Labels ride nowhere:
the scorer gets them after the run, so nothing the graph runs can read a label.

Every run goes through this one graph. Its nodes are coroutines, so the same compiled graph
serves the deterministic matrix (:func:`run_episodes`, a batch per ``ainvoke``) and live
runs (:func:`arun_episodes` on the live loop, one episode per ``ainvoke`` so that a slow
provider call holds up only its own record): the generate node awaits a live reader's call
instead of blocking. The other nodes and the router are CPU work run inline: under
``ainvoke`` LangGraph runs a synchronous node or router in a worker thread, a hand-off per
step that would cost more than the step.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Literal, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime

from simulator.agent import steps
from simulator.agent.state import AgentContext, BatchContext, Episode, Node
from simulator.live.loop import run_blocking

RECURSION_LIMIT = 60
"""Explicit: the retry loop is capped by MAX_ATTEMPTS; a runaway stops here."""


class AgentState(TypedDict):
    episodes: list[Episode]


Runtime_ = Runtime[BatchContext]
AgentGraph = CompiledStateGraph[AgentState, BatchContext, AgentState, AgentState]


def _map(state: AgentState, runtime: Runtime_, at: Node, step: steps.Step) -> AgentState:
    """Apply ``step`` to every episode waiting at ``at``; others pass unchanged."""
    out = []
    for episode, ctx in zip(state["episodes"], runtime.context.records, strict=True):
        out.append(steps.merge(episode, step(episode, ctx)) if episode["next"] == at else episode)
    return {"episodes": out}


async def _retrieve(state: AgentState, runtime: Runtime_) -> AgentState:
    return _map(state, runtime, "retrieve", steps.retrieve)


async def _contract(state: AgentState, runtime: Runtime_) -> AgentState:
    return _map(state, runtime, "contract", steps.contract)


async def _policy_gate(state: AgentState, runtime: Runtime_) -> AgentState:
    return _map(state, runtime, "policy_gate", steps.policy_gate)


async def _generate(state: AgentState, runtime: Runtime_) -> AgentState:
    """Every waiting episode's reader; live readers' calls are awaited together.

    A reader without ``aread`` (the deterministic extractor) does no I/O, so its episodes
    are answered inline, without a task each.
    """
    episodes, records = list(state["episodes"]), runtime.context.records
    waiting = [i for i, episode in enumerate(episodes) if episode["next"] == "generate"]
    calls = [i for i in waiting if steps.reads_async(records[i])]
    for i in waiting:
        if i not in calls:
            episodes[i] = steps.merge(episodes[i], steps.generate(episodes[i], records[i]))
    if calls:
        updates = await asyncio.gather(*(steps.agenerate(episodes[i], records[i])
                                         for i in calls))
        for i, update in zip(calls, updates, strict=True):
            episodes[i] = steps.merge(episodes[i], update)
    return {"episodes": episodes}


async def _finish(state: AgentState, runtime: Runtime_) -> AgentState:
    return _map(state, runtime, "stop", steps.stop)


async def _after_gate(state: AgentState) -> Literal["retrieve", "generate", "finish"]:
    waiting = {episode["next"] for episode in state["episodes"]}
    if "retrieve" in waiting:
        return "retrieve"
    return "generate" if "generate" in waiting else "finish"


def build_agent_graph() -> AgentGraph:
    """Compile the agent graph. Do it once; invoke it with :func:`run_episodes`."""
    graph = StateGraph(AgentState, context_schema=BatchContext)
    graph.add_node("retrieve", _retrieve)
    graph.add_node("contract", _contract)
    graph.add_node("policy_gate", _policy_gate)
    graph.add_node("generate", _generate)
    graph.add_node("finish", _finish)
    graph.add_edge(START, "retrieve")
    graph.add_edge("retrieve", "contract")
    graph.add_edge("contract", "policy_gate")
    graph.add_conditional_edges("policy_gate", _after_gate,
                                {"retrieve": "retrieve", "generate": "generate",
                                 "finish": "finish"})
    graph.add_edge("generate", "finish")
    graph.add_edge("finish", END)
    return graph.compile()


def run_episodes(graph: AgentGraph, contexts: Sequence[AgentContext]) -> list[Episode]:
    """Run one episode per context through the compiled graph; finished states, in order.

    The blocking form of :func:`arun_episodes` (a loop of many batches should await that
    inside :func:`simulator.live.loop.blocking_runs`).
    """
    if not contexts:
        return []
    return run_blocking(arun_episodes(graph, contexts))


async def arun_episodes(graph: AgentGraph, contexts: Sequence[AgentContext]) -> list[Episode]:
    """Run one episode per context through the compiled graph, awaiting live readers."""
    if not contexts:
        return []
    state: AgentState = {"episodes": [steps.initial_episode(c.task) for c in contexts]}
    final = await graph.ainvoke(state, context=BatchContext(tuple(contexts)),
                                config={"recursion_limit": RECURSION_LIMIT})
    return list(final["episodes"])

