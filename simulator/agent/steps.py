"""What each graph node does to one episode: pure functions of (episode, context).

An episode (:class:`~simulator.agent.state.Episode`) is one record's state. Each step
returns an :class:`~simulator.agent.state.EpisodeUpdate`; :func:`merge` applies it (the
fields in :data:`ACCUMULATE` are appended to, others replace). ``next`` says which step the
episode waits for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from middleware import FaultContext, ToolCall, check_contract
from simulator.agent.gate import Decision, GateInput
from simulator.agent.observation import observe
from simulator.agent.pipelines import stops_before_prompt
from simulator.agent.state import AgentContext, Episode, EpisodeUpdate
from simulator.agent.trace import PolicyStep, ToolCallTrace
from simulator.corpus.model import Task
from simulator.readers.base import ReaderInput, ReaderResult, unknown_answer
from simulator.readers.call_metadata import record_metadata

Step = Callable[[Episode, AgentContext], EpisodeUpdate]

MAX_ATTEMPTS = 8
"""Hard cap on tool calls per record, whatever a policy asks for."""
ACCUMULATE = frozenset({"calls", "payloads", "policy_steps"})
"""The episode's list fields that an update appends to rather than replaces."""


def initial_episode(task: Task) -> Episode:
    return {"question": task.question, "answer_format": task.answer_format, "next": "retrieve",
            "raw": None, "calls": [], "payloads": [], "policy_steps": [], "evidence": [],
            "notes": [], "instructions": "", "decision": None, "terminated": None, "answer": None,
            "reader_result": None, "transcript": None, "final_text": None}


def merge(episode: Episode, update: EpisodeUpdate) -> Episode:
    """A new episode with ``update`` applied; the input is not modified."""
    out: dict[str, Any] = dict(episode)
    for key, value in update.items():
        out[key] = out[key] + value if key in ACCUMULATE else value
    return cast(Episode, out)


def retrieve(episode: Episode, ctx: AgentContext) -> EpisodeUpdate:
    call = ToolCall(name="search_policies",
                    args={"query": ctx.task.question, "session": ctx.task.session.model_dump()})
    fault_ctx = FaultContext(task=ctx.task, attempt=len(episode["calls"]),
                             seed=ctx.seed)
    return {"raw": ctx.chain.invoke(call, fault_ctx), "next": "contract"}


def contract(episode: Episode, ctx: AgentContext) -> EpisodeUpdate:
    # A policy may take over the contract step (schema_repair turns strict into repair).
    mode = getattr(ctx.gate, "contract_override", None) or ctx.contract_mode
    seen = observe(check_contract(episode["raw"], mode=mode), attempt=len(episode["calls"]))
    return {"calls": [seen.trace], "payloads": [seen.payload], "evidence": list(seen.evidence),
            "notes": list(seen.notes), "raw": None, "next": "policy_gate"}


def unavailable_reason(call: ToolCallTrace) -> str | None:
    """Why the paper's pipeline stops before building a prompt, or None to go on."""
    if call.status == "missing":
        return "tool output missing"
    if not call.valid:
        return "tool output rejected by the strict contract"
    if call.access_denied:
        return "access denied"
    return None


def policy_gate(episode: Episode, ctx: AgentContext) -> EpisodeUpdate:
    calls = episode["calls"]
    outcome = ctx.gate(GateInput(
        task=ctx.task, contract_mode=ctx.contract_mode, calls=tuple(calls),
        payloads=tuple(episode["payloads"]), evidence=tuple(episode["evidence"]),
        notes=tuple(episode["notes"]), fetch_document=ctx.fetch_document,
    ))
    decisions: list[Decision] = list(outcome) if isinstance(outcome, list) else [outcome]
    final = decisions[-1] if decisions else Decision("allow", "no decision")
    if final.action == "retry" and len(calls) >= MAX_ATTEMPTS:
        final = Decision("abstain", f"retry cap of {MAX_ATTEMPTS} attempts reached",
                         policy=final.policy)
        decisions.append(final)
    update: EpisodeUpdate = {
        "decision": final.action,
        "policy_steps": [PolicyStep(policy=d.policy, action=d.action, reason=d.reason)
                         for d in decisions],
    }
    override = next((d.evidence for d in reversed(decisions) if d.evidence is not None), None)
    if override is not None:
        update["evidence"] = list(override)
    update["instructions"] = "\n".join(d.instructions for d in decisions if d.instructions)
    if final.action == "retry":
        update["next"] = "retrieve"
    elif final.action in ("abstain", "reject"):
        update["next"] = "done"
        update["terminated"] = f"{final.action}: {final.reason}"
        update["answer"] = unknown_answer(final.reason)
    elif stops_before_prompt(ctx.pipeline) and unavailable_reason(calls[-1]) is not None:
        update["next"] = "stop"
    else:
        update["next"] = "generate"
    return update


def reader_input(episode: Episode, ctx: AgentContext) -> ReaderInput:
    """What the generate step asks the reader: the prompt's content, hashed as it is sent."""
    return ReaderInput(question=episode["question"], answer_format=episode["answer_format"],
                       evidence=tuple(episode["evidence"]), notes=tuple(episode["notes"]),
                       instructions="\n".join(i for i in (ctx.instructions,
                                                           episode.get("instructions", "")) if i),
                       conversation=ctx.conversation)


def generate(episode: Episode, ctx: AgentContext) -> EpisodeUpdate:
    return _answered(ctx.reader.read(reader_input(episode, ctx)))


def reads_async(ctx: AgentContext) -> bool:
    """Whether ``ctx``'s reader awaits a provider (a chat reader's ``aread``)."""
    return hasattr(ctx.reader, "aread")


async def agenerate(episode: Episode, ctx: AgentContext) -> EpisodeUpdate:
    """:func:`generate`, awaiting a live reader's call instead of blocking on it."""
    item = reader_input(episode, ctx)
    aread = getattr(ctx.reader, "aread", None)
    if aread is None:
        return _answered(ctx.reader.read(item))
    with record_metadata(ctx.metadata):  # the batch's graph config cannot carry it per record
        return _answered(await aread(item))


def _answered(result: ReaderResult) -> EpisodeUpdate:
    return {"answer": result.answer, "reader_result": result, "next": "done"}


def stop(episode: Episode, ctx: AgentContext) -> EpisodeUpdate:
    """The pipeline's own early exit: a structured unknown, no prompt built."""
    reason = unavailable_reason(episode["calls"][-1]) or "unknown"
    return {"terminated": reason, "answer": unknown_answer(reason), "next": "done"}
