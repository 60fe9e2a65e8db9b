"""Build one record's trajectory from its finished episode, at scoring time.

The pipeline's episode holds its searches as traces and contract-checked payloads (every
search asks the task's question); a tool-calling agent's episode adds its ``transcript``,
the calls it made with their arguments and the messages it got
(simulator/agents/harness.py ``RecordedCall``). Both become the same
:class:`~.model.Trajectory` shape, built here as plain dicts (see :mod:`.model` on why).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from simulator.agent.observation import evidence_of
from simulator.agent.state import Episode
from simulator.agent.trace import Trace
from simulator.agents.prompt import task_message
from simulator.answers.schema import AgentAnswer
from simulator.corpus.model import Labels, Task
from simulator.runner.trajectory.effects import Registry, search_effects
from simulator.runner.trajectory.model import TEXT_CHARS, TRAJECTORY_VERSION
from simulator.runner.trajectory.reasons import verdict


def _cut(text: str | None, limit: int = TEXT_CHARS) -> str | None:
    if text is None or len(text) <= limit:
        return text
    return text[:limit] + f"... [{len(text) - limit} more characters]"


def _hits(payload: Any) -> list[dict[str, Any]]:
    return [{**e.model_dump(), "text": _cut(e.text)} for e in evidence_of(payload)]


def _failed_message(call: Any) -> str | None:
    if call.status == "missing":
        return "no usable tool output"
    if call.status == "invalid":
        return "rejected by the contract: " + "; ".join(call.errors[:3])
    return None


class _Search:
    """Turns the episode's i-th search into a step (its hits, notes and fault effects)."""

    def __init__(self, episode: Episode, task: Task, faults: Sequence[str],
                 registry: Registry, top_k: int) -> None:
        self.calls, self.payloads = episode["calls"], episode["payloads"]
        self.task, self.faults, self.registry, self.top_k = task, faults, registry, top_k

    def step(self, i: int, args: dict[str, Any], *, shown: bool) -> dict[str, Any]:
        call = self.calls[i]
        payload = self.payloads[i] if i < len(self.payloads) else None
        return {"tool": call.tool, "args": args, "status": call.status,
                "hits": _hits(payload), "notes": list(payload.notes) if payload else [],
                "message": _failed_message(call), "repairs": list(call.repairs),
                "errors": list(call.errors), "shown": shown,
                "faults": search_effects(call, payload, self.faults,
                                         caller_session=self.task.session.session_id,
                                         registry=self.registry, top_k=self.top_k)}


def _pipeline_steps(search: _Search, question: str) -> list[dict[str, Any]]:
    last = len(search.calls) - 1
    return [search.step(i, {"query": question}, shown=i == last)
            for i in range(len(search.calls))]


def _agent_steps(search: _Search, transcript: list[Any]) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = []
    for entry in transcript:
        args = _jsonable(entry.args)
        if not entry.observations:  # fetch_document, or a call refused before any search
            steps.append({"tool": entry.tool, "args": args,
                          "status": "error" if entry.error else "ok",
                          "message": _cut(entry.content), "shown": True})
            continue
        *retried, seen = entry.observations
        steps.extend(search.step(i, args, shown=False) for i in retried)
        step = search.step(seen, args, shown=True)
        if entry.error or (entry.content is not None and not entry.content.startswith("{")):
            step["message"] = _cut(entry.content)  # a policy's stop, a contract rejection
        steps.append(step)
    return steps


def _jsonable(args: dict[str, Any]) -> dict[str, Any]:
    try:
        json.dumps(args)
    except (TypeError, ValueError):
        return {k: str(v) for k, v in args.items()}
    return dict(args)


def build_trajectory(episode: Episode, task: Task, labels: Labels, record: Any, *,
                     answer: AgentAnswer, trace: Trace, faults: Sequence[str],
                     registry: Registry, top_k: int, instructions: str = "") -> dict[str, Any]:
    """The trajectory of ``record`` (its :class:`~simulator.runner.record.RunRecord`),
    shaped as :class:`~.model.Trajectory`. ``faults``: the scenario's fault names;
    ``registry``: the corpus's documents by id (evaluator-side)."""
    search = _Search(episode, task, faults, registry, top_k)
    transcript = episode.get("transcript")
    steps = (_agent_steps(search, transcript) if transcript is not None
             else _pipeline_steps(search, task.question))
    return {
        "version": TRAJECTORY_VERSION, "agent": record.agent, "question": task.question,
        "task_message": task_message(task, instructions),
        "steps": steps,
        "policy": [{"policy": p.policy, "action": p.action, "reason": p.reason}
                   for p in trace.policy_steps],
        "reader_evidence": list(trace.evidence_doc_ids),
        "terminated": trace.terminated,
        "answer": {"value": answer.answer, "citations": list(answer.citations),
                   "abstained": answer.abstained, "reason": answer.reason,
                   "prose": _cut(episode.get("final_text"))},
        "verdict": verdict(record, answer, trace, labels),
    }
