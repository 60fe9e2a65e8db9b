"""Run one record through a tool-calling agent and hand the scorer an episode.

The episode has the shape the pipeline's graph produces (:class:`simulator.agent.state.
Episode`), filled from the run's :class:`~simulator.agents.harness.Recorder` (every search
the agent made, after the contract step; every policy decision) and the agent's final
answer. An agent that raises, loops past its step budget, outlives the record's time limit,
calls none of its tools or is stopped by a limit is still a record, and never stops the
run: an *agent error* (simulator.scoring.verdict), with its one-line reason in
``terminated`` and in the answer's ``reason``. One that submits nothing readable is a
reader error, as for chat readers. One that ends in prose rather than a ``FinalAnswer`` is
read by the task's answer format (simulator/answers/prose.py).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langgraph.errors import GraphRecursionError
from pydantic import ValidationError

from simulator.agent.state import Episode
from simulator.agents.answer import ANSWER_TOOL, FinalAnswer, to_agent_answer
from simulator.agents.harness import ToolRunContext, recorder_of
from simulator.agents.prompt import PROMPT_VERSION, task_message
from simulator.agents.tool_model import DriverCannotAnswer
from simulator.answers.prose import read_prose
from simulator.answers.schema import AgentAnswer, unknown_answer
from simulator.corpus.model import Task
from simulator.endpoints.environment import TOOL_NAMES
from simulator.errors import LayerragError
from simulator.live.discipline import ProviderFailed
from simulator.live.secrets import scrub
from simulator.live.threads import in_worker_thread
from simulator.readers.base import ReaderResult
from simulator.readers.call_metadata import call_config
from simulator.vocabulary import CALLED_NO_TOOL, CALLED_ONLY_OWN_TOOLS

RECURSION_LIMIT = 40
"""LangGraph steps per record (a model call and a tool call are a step each): ample for
the eight searches the harness allows, a hard stop for an agent that loops."""


def agent_input(task: Task, instructions: str = "") -> dict[str, Any]:
    """What the agent is invoked with: one user message (the question and its format, and
    the run's additional instructions, if any)."""
    return {"messages": [HumanMessage(task_message(task, instructions))]}


def run_tool_agent(graph: Any, ctx: ToolRunContext, *,
                   timeout: float | None = None) -> Episode:
    """The finished episode of ``ctx``'s record through ``graph``, invoked synchronously
    (``graph.invoke``) under a time limit of ``timeout`` seconds (None: none)."""
    from simulator.live.loop import run_blocking

    return run_blocking(arun_tool_agent(graph, ctx, timeout=timeout, sync=True))


async def arun_tool_agent(graph: Any, ctx: ToolRunContext, *, timeout: float | None = None,
                          sync: bool = False, history: Sequence[BaseMessage] = ()) -> Episode:
    """The finished episode of ``ctx``'s record through ``graph``.

    ``sync``: invoke the graph with ``invoke`` on a worker thread (a graph whose middleware
    has only the synchronous hooks; simulator/agents/preflight.py finds out), else await
    ``ainvoke``. ``history``: a conversation's earlier messages, before the task message.
    A run that outlives ``timeout`` seconds is an agent error; its thread, if it has one,
    cannot be stopped and is left behind (simulator/live/threads.py never waits for it).
    """
    from simulator.agents.tools import running

    inputs = agent_input(ctx.task, ctx.instructions)
    if history:
        inputs = {"messages": [*history, *inputs["messages"]]}
    config = {"recursion_limit": RECURSION_LIMIT, **call_config(ctx.metadata)}
    with running(ctx):  # the task and the worker thread copy the context: ctx's tool calls
        if sync:
            call: Any = in_worker_thread(graph.invoke, inputs, context=ctx, config=config)
        else:
            call = graph.ainvoke(inputs, context=ctx, config=config)
        task = asyncio.ensure_future(call)
    try:
        done, _ = await asyncio.wait({task}, timeout=timeout)
    except asyncio.CancelledError:
        task.cancel()
        raise
    if not done:
        task.cancel()
        return agent_failed(ctx, f"the agent exceeded the record time limit of {timeout:g} s")
    try:
        final = task.result()
    except (LayerragError, KeyboardInterrupt):
        raise
    except Exception as exc:  # a user's agent failing is its record's outcome
        return _failed(ctx, exc)
    return episode_of(ctx, final, None)


def _failed(ctx: ToolRunContext, exc: Exception) -> Episode:
    """The episode of a run that did not finish: the provider, out of steps, or a bug."""
    if isinstance(exc, ProviderFailed):
        return episode_of(ctx, None, str(exc), provider_error=True)
    if isinstance(exc, GraphRecursionError):
        return agent_failed(ctx, f"the agent exceeded its step budget of {RECURSION_LIMIT}")
    if isinstance(exc, DriverCannotAnswer):
        return agent_failed(ctx, str(exc))
    return agent_failed(ctx, f"the agent raised {described(exc)}")


def described(exc: BaseException) -> str:
    """``Kind: first line of the message`` (160 characters at most), scrubbed of known keys:
    a library's message may quote a body that echoes one."""
    text = scrub(str(exc)).strip()
    first = text.splitlines()[0][:160] if text else ""
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def agent_failed(ctx: ToolRunContext, reason: str) -> Episode:
    """The episode of an agent that broke (an agent error, never an abstention)."""
    return episode_of(ctx, None, reason, agent_error=True)


def episode_of(ctx: ToolRunContext, final: dict[str, Any] | None, error: str | None, *,
               provider_error: bool = False, agent_error: bool = False) -> Episode:
    """The episode of a finished run (``final`` is None when it did not finish).

    A run that finished can still be an agent error: it called none of the tools it was
    given, or a limit middleware (LangChain's ``ModelCallLimitMiddleware`` or
    ``ToolCallLimitMiddleware`` with ``exit_behavior="end"``) stopped it.
    """
    recorder = recorder_of(ctx)
    messages: list[BaseMessage] = list((final or {}).get("messages", []))
    if error is None and final is not None and recorder.terminated is None:
        error = limit_stop(messages) or (None if recorder.tool_calls else
                                         _unrecorded(messages))
        agent_error = error is not None
    broke = agent_error or provider_error
    terminated = error if broke else (recorder.terminated or error)
    unparseable = False
    if recorder.terminated is not None and not broke:
        answer = unknown_answer(recorder.terminated)
    elif error is not None:
        answer = unknown_answer(error)
    else:
        answer, unparseable = final_answer(final or {}, messages, ctx.task)
    observations = recorder.observations
    last = next((m for m in reversed(messages) if isinstance(m, AIMessage)), None)
    return Episode(
        question=ctx.task.question, answer_format=ctx.task.answer_format, next="done",
        raw=None, calls=[o.trace for o in observations],
        payloads=[o.payload for o in observations], policy_steps=list(recorder.policy_steps),
        evidence=list(recorder.evidence),
        notes=list(observations[-1].notes) if observations else [],
        instructions="",  # a policy's instructions reach the agent in the notes (harness.py)
        decision=recorder.policy_steps[-1].action if recorder.policy_steps else None,
        terminated=terminated, answer=answer,
        reader_result=(_run_error(ctx, answer, provider_error=True) if provider_error else
                       _run_error(ctx, answer, agent_error=True) if agent_error else
                       _model_result(answer, messages, unparseable) if messages else None),
        transcript=list(recorder.calls),
        final_text=(last.text.strip() or None) if last is not None else None)


def _run_error(ctx: ToolRunContext, answer: AgentAnswer, *, provider_error: bool = False,
               agent_error: bool = False) -> ReaderResult:
    """The model side of a record whose provider kept failing, or whose agent broke: the
    hash of what the agent was given, no tokens, the error."""
    body = json.dumps([PROMPT_VERSION, task_message(ctx.task, ctx.instructions)])
    return ReaderResult(answer=answer, provider_error=provider_error, agent_error=agent_error,
                        prompt_hash=hashlib.sha256(body.encode()).hexdigest()[:16])


def _unrecorded(messages: list[BaseMessage]) -> str:
    """Why a finished run recorded no tool call: it made none, or it called only tools of
    its own (which layerrag neither faults nor records)."""
    own = sorted({str(m.name) for m in messages if isinstance(m, ToolMessage)
                  and m.name and m.name not in (*TOOL_NAMES, ANSWER_TOOL)})
    if own:
        return (f"{CALLED_ONLY_OWN_TOOLS} ({', '.join(own)}), "
                f"none of {', '.join(TOOL_NAMES)}: no fault reaches them and nothing is "
                "recorded (docs/agents.md)")
    return CALLED_NO_TOOL


_LIMIT_STOP = re.compile(r"^(Model call limits exceeded: |('[^']*' tool|Tool) call limit "
                         r"reached: )")
"""The final messages LangChain's limit middleware writes when it ends a run."""


def limit_stop(messages: list[BaseMessage]) -> str | None:
    """``the agent was stopped by a limit: ...`` when the run's last message is one a
    LangChain limit middleware wrote on ending it, else None."""
    last = messages[-1] if messages else None
    text = str(last.content) if isinstance(last, AIMessage) else ""
    if not _LIMIT_STOP.match(text):
        return None
    return f"the agent was stopped by a limit: {text.splitlines()[0][:160]}"


def final_answer(final: dict[str, Any], messages: list[BaseMessage], task: Task
                 ) -> tuple[AgentAnswer, bool]:
    """The structured response, else the last AI message's ``FinalAnswer`` tool call, or
    its text read as a ``FinalAnswer`` (JSON) or as prose by ``task``'s answer format
    (:func:`simulator.answers.prose.read_prose`); and whether the output was unparseable.

    ``FinalAnswer`` is the exact path and wins whenever it is there. A structured response
    that is not a ``FinalAnswer`` (off-schema), a last message with neither text nor an
    answer, or prose with no value of the task's format and no abstention, is neither an
    answer nor an abstention: a reader error, as it is for chat readers, so it never counts
    as a safe non-answer.
    """
    structured = final.get("structured_response")
    if isinstance(structured, FinalAnswer):
        return to_agent_answer(structured), False
    if structured is not None:
        try:
            return to_agent_answer(FinalAnswer.model_validate(structured)), False
        except ValidationError:
            return unknown_answer("the agent's structured response is not a FinalAnswer"), True
    last = next((m for m in reversed(messages) if isinstance(m, AIMessage)), None)
    submitted = next((c for c in (last.tool_calls if last is not None else [])
                      if c["name"] == ANSWER_TOOL), None)
    if submitted is not None:  # a graph that binds FinalAnswer as one more tool
        try:
            return to_agent_answer(FinalAnswer.model_validate(submitted["args"])), False
        except ValidationError:
            return unknown_answer("the agent's FinalAnswer call is not a FinalAnswer"), True
    text = str(last.content).strip() if last is not None else ""
    if not text:
        return unknown_answer("the agent's final message holds no answer"), True
    try:
        return to_agent_answer(FinalAnswer.model_validate_json(text)), False
    except ValidationError:
        return read_prose(text, task.question, task.answer_format)


def _model_result(answer: AgentAnswer, messages: list[BaseMessage],
                  unparseable: bool = False) -> ReaderResult:
    """The record's model side: the hash of the transcript the final answer came from (the
    agent's "prompt"), the tokens every model call used, and whether its final output could
    not be read as an answer or an abstention (a reader error, never a non-answer)."""
    transcript = [[type(m).__name__, str(m.content), getattr(m, "tool_calls", None) or []]
                  for m in messages[:-1]]
    body = json.dumps([PROMPT_VERSION, transcript], sort_keys=True, default=str)
    usage = [m.usage_metadata for m in messages
             if isinstance(m, AIMessage) and m.usage_metadata]
    return ReaderResult(answer=answer, prompt_hash=hashlib.sha256(body.encode()).hexdigest()[:16],
                        reader_error=unparseable,
                        input_tokens=sum(u.get("input_tokens", 0) for u in usage),
                        output_tokens=sum(u.get("output_tokens", 0) for u in usage))
