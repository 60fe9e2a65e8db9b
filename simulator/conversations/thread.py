"""A case's conversation as a LangGraph thread: one checkpointed state per thread, one graph
invoke per turn.

The thread's state is its memory: the messages so far and the session they belong to. A
turn loads it (through the checkpointer, by the thread id), lets the agent answer the new
message with that history, and writes the memory back with the exchange appended. Under a
session fault the turn may be served another thread's memory instead of its own (the
runner decides whose, as the endpoint's session mix-up does); a session control refuses
memory of a session not the caller's, and the turn runs on its own. Memory taken in stays:
the thread is then mixed up for every later turn, as a memory store that handed out the
wrong entry and had it written back would be.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict, cast

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime

from simulator.cases.record import Memory


class ThreadState(TypedDict, total=False):
    session_id: str
    """Whose memory this is."""
    messages: list[BaseMessage]
    memory: Memory
    pending: str
    """The user's new message (what a turn is invoked with)."""
    history: list[tuple[str, str]]
    """The exchanges the last turn was answered with (its memory before the turn)."""


Answer = Callable[[Sequence[tuple[str, str]], str], Awaitable[str]]
"""``(earlier exchanges (user message, reply), message) -> reply text``: the agent's turn
(the runner keeps what else it needs of the turn itself, out of the checkpoint)."""


@dataclass(frozen=True)
class TurnInput:
    """What one turn's invoke carries beside the message (the graph's runtime context)."""

    session_id: str
    """The caller's session (the case's)."""
    answer: Answer
    foreign: ThreadState | None = None
    """Another thread's memory, served in place of this thread's (a session fault)."""
    isolate: bool = False
    """A session control: refuse memory whose session is not the caller's."""


ThreadGraph = CompiledStateGraph[ThreadState, TurnInput, ThreadState, ThreadState]


def thread_config(thread_id: str) -> RunnableConfig:
    return {"configurable": {"thread_id": thread_id}, "recursion_limit": 8}


def exchanges(messages: Sequence[BaseMessage]) -> list[tuple[str, str]]:
    """(user message, reply) pairs of a memory, in order."""
    users = [str(m.content) for m in messages if isinstance(m, HumanMessage)]
    replies = [str(m.content) for m in messages if isinstance(m, AIMessage)]
    return list(zip(users, replies, strict=False))


def as_messages(pairs: Sequence[tuple[str, str]]) -> list[BaseMessage]:
    """The messages of (user message, reply) pairs: what :func:`exchanges` reads back."""
    messages: list[BaseMessage] = []
    for user, reply in pairs:
        messages += [HumanMessage(user), AIMessage(reply)]
    return messages


async def _turn(state: ThreadState, runtime: Runtime[TurnInput]) -> ThreadState:
    ctx = runtime.context
    memory: Memory = "own"
    session, messages = state.get("session_id", ctx.session_id), state.get("messages", [])
    if session != ctx.session_id:  # an earlier turn took in another session's memory
        memory = "mixed"
        if ctx.isolate:
            session, messages, memory = ctx.session_id, [], "refused"
    if ctx.foreign is not None:
        if ctx.isolate and ctx.foreign.get("session_id") != ctx.session_id:
            memory = "refused"
        else:
            session = ctx.foreign.get("session_id", ctx.session_id)
            messages, memory = list(ctx.foreign.get("messages", [])), "foreign"
    message = state.get("pending")
    if not isinstance(message, str):
        raise ValueError("a turn is invoked with the user's message as 'pending'")
    reply = await ctx.answer(exchanges(messages), message)
    return {"session_id": session, "memory": memory, "history": exchanges(messages),
            "messages": [*messages, HumanMessage(message), AIMessage(reply)]}


def build_thread_graph() -> ThreadGraph:
    """The conversation graph, compiled once per run with its own in-memory checkpointer
    (a resumed run rebuilds each unfinished thread from the run store: :func:`restore`)."""
    graph = StateGraph(ThreadState, context_schema=TurnInput)
    graph.add_node("turn", _turn)
    graph.add_edge(START, "turn")
    graph.add_edge("turn", END)
    return graph.compile(checkpointer=InMemorySaver())  # type: ignore[return-value]


async def run_turn(graph: ThreadGraph, thread_id: str, message: str, ctx: TurnInput
                   ) -> ThreadState:
    """One turn of ``thread_id``: the thread's state after it."""
    out = await graph.ainvoke({"pending": message}, thread_config(thread_id), context=ctx)
    return cast(ThreadState, out)


async def memory_of(graph: ThreadGraph, thread_id: str, turns: int) -> ThreadState:
    """A thread's memory after its first ``turns`` turns, as its checkpoint holds it (a
    thread has as many exchanges as turns, so the first ``turns`` of them)."""
    snapshot = await graph.aget_state(thread_config(thread_id))
    values: dict[str, Any] = dict(snapshot.values or {})
    return {"session_id": values.get("session_id", ""),
            "messages": list(values.get("messages", []))[:2 * turns]}


async def restore(graph: ThreadGraph, thread_id: str, session_id: str,
                  pairs: Sequence[tuple[str, str]]) -> None:
    """Rebuild a thread from stored turns (message, reply text): resume without re-asking."""
    await graph.aupdate_state(thread_config(thread_id),
                              {"session_id": session_id, "messages": as_messages(pairs)},
                              as_node="turn")
