"""Run one record through a tool-calling agent and hand the scorer an episode.

The episode has the shape the pipeline's graph produces (:class:`simulator.agent.state.
Episode`), filled from the run's :class:`~simulator.agents.harness.Recorder` (every search
the agent made, after the contract step; every policy decision) and the agent's final
answer. An agent that loops past its step budget, submits no answer, calls no tool or
raises is still a record, with the reason in ``terminated``; it never stops the run.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langgraph.errors import GraphRecursionError
from pydantic import ValidationError

from simulator.agent.state import Episode
from simulator.agents.answer import FinalAnswer, to_agent_answer
from simulator.agents.harness import ToolRunContext, recorder_of
from simulator.agents.prompt import PROMPT_VERSION, task_message
from simulator.answers.schema import AgentAnswer, unknown_answer
from simulator.corpus.model import Task
from simulator.errors import LayerragError
from simulator.live.discipline import ProviderFailed
from simulator.live.secrets import scrub
from simulator.readers.base import ReaderResult

RECURSION_LIMIT = 40
"""LangGraph steps per record (a model call and a tool call are a step each): ample for
the eight searches the harness allows, a hard stop for an agent that loops."""

_CITATION = re.compile(r"\[([A-Za-z0-9._:-]+)\]")


def agent_input(task: Task, instructions: str = "") -> dict[str, Any]:
    """What the agent is invoked with: one user message (the question and its format, and
    the run's additional instructions, if any)."""
    return {"messages": [HumanMessage(task_message(task, instructions))]}


def run_tool_agent(graph: Any, ctx: ToolRunContext) -> Episode:
    """The finished episode of ``ctx``'s record through ``graph``."""
    try:
        final = graph.invoke(agent_input(ctx.task, ctx.instructions), context=ctx,
                             config={"recursion_limit": RECURSION_LIMIT})
    except (LayerragError, KeyboardInterrupt):
        raise
    except Exception as exc:  # a user's agent failing is its record's outcome
        return _failed(ctx, exc)
    return episode_of(ctx, final, None)


async def arun_tool_agent(graph: Any, ctx: ToolRunContext) -> Episode:
    """Async twin of :func:`run_tool_agent` (live models: the call is awaited)."""
    try:
        final = await graph.ainvoke(agent_input(ctx.task, ctx.instructions), context=ctx,
                                    config={"recursion_limit": RECURSION_LIMIT})
    except (LayerragError, KeyboardInterrupt):
        raise
    except Exception as exc:  # a user's agent failing is its record's outcome
        return _failed(ctx, exc)
    return episode_of(ctx, final, None)


def _failed(ctx: ToolRunContext, exc: Exception) -> Episode:
    """The episode of a run that did not finish: out of steps, the provider, or a bug."""
    if isinstance(exc, ProviderFailed):
        return episode_of(ctx, None, str(exc), provider_error=True)
    if isinstance(exc, GraphRecursionError):
        return episode_of(ctx, None, f"step budget of {RECURSION_LIMIT} exceeded")
    text = scrub(str(exc))[:160]  # a library's message may quote a body that echoes a key
    return episode_of(ctx, None, f"the agent raised {type(exc).__name__}: {text}")


def episode_of(ctx: ToolRunContext, final: dict[str, Any] | None, error: str | None, *,
               provider_error: bool = False) -> Episode:
    """The episode of a finished run (``final`` is None when it did not finish)."""
    recorder = recorder_of(ctx)
    messages: list[BaseMessage] = list((final or {}).get("messages", []))
    terminated = recorder.terminated or error
    unparseable = False
    if recorder.terminated is not None:
        answer = unknown_answer(recorder.terminated)
    elif error is not None:
        answer = unknown_answer(error)
    else:
        answer, unparseable = final_answer(final or {}, messages)
        if not recorder.tool_calls:
            terminated = "the agent called no tool"
    observations = recorder.observations
    return Episode(
        question=ctx.task.question, answer_format=ctx.task.answer_format, next="done",
        raw=None, calls=[o.trace for o in observations],
        payloads=[o.payload for o in observations], policy_steps=list(recorder.policy_steps),
        evidence=list(recorder.evidence),
        notes=list(observations[-1].notes) if observations else [],
        instructions="",  # a policy's instructions reach the agent in the notes (harness.py)
        decision=recorder.policy_steps[-1].action if recorder.policy_steps else None,
        terminated=terminated, answer=answer,
        reader_result=(_model_result(answer, messages, unparseable) if messages else
                       _provider_error(ctx, answer) if provider_error else None))


def _provider_error(ctx: ToolRunContext, answer: AgentAnswer) -> ReaderResult:
    """The model side of a record whose provider kept failing: no tokens, an error."""
    body = json.dumps([PROMPT_VERSION, task_message(ctx.task, ctx.instructions)])
    return ReaderResult(answer=answer, provider_error=True,
                        prompt_hash=hashlib.sha256(body.encode()).hexdigest()[:16])


def final_answer(final: dict[str, Any], messages: list[BaseMessage]
                 ) -> tuple[AgentAnswer, bool]:
    """The structured response, else the last AI message read as a ``FinalAnswer`` (JSON)
    or as prose with ``[doc_id]`` citations; and whether the output was unparseable.

    A structured response that is not a ``FinalAnswer`` (off-schema), or a last message with
    neither text nor an answer, is neither an answer nor an abstention: a reader error, as
    it is for chat readers, so it never counts as a safe non-answer.
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
    text = str(last.content).strip() if last is not None else ""
    if not text:
        return unknown_answer("the agent's final message holds no answer"), True
    try:
        return to_agent_answer(FinalAnswer.model_validate_json(text)), False
    except ValidationError:
        citations = tuple(dict.fromkeys(_CITATION.findall(text)))
        prose = _CITATION.sub("", text).strip(" .")
        if not prose:
            return unknown_answer("the agent's final message holds no answer"), True
        return AgentAnswer(answer=prose, citations=citations), False


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
