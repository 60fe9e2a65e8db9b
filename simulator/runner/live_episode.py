"""Run one record's agent steps on the live loop, awaiting the reader instead of blocking.

These are the step functions the LangGraph agent runs (:mod:`simulator.agent.steps`), in
the graph's order: each step names the next one in ``episode["next"]``, exactly what the
graph routes on, so a record comes out identical either way (tests/live compares a live
run with the LangGraph deterministic run, record by record). The graph's scheduler is left
out on purpose: under ``ainvoke`` it costs ~1.9 ms of CPU per record, which on the single
live loop is the difference between ~75 % and over 90 % of ideal throughput at 32
concurrent calls (benchmarks/live.py).

The ``generate`` step is taken in two halves around the await: the graph's own step builds
the reader input (captured, so the prompt is exactly the one the graph would send), the
reader is awaited, and the same step then records the result.

:mod:`simulator.runner.live` runs one episode per record and scores it. This module knows
the agent and nothing of the runner, so neither it nor :mod:`simulator.live` (the call
services) imports the matrix.
"""

from __future__ import annotations

import dataclasses

from simulator.agent import steps
from simulator.agent.state import AgentContext, Episode, EpisodeUpdate, Node
from simulator.readers.base import ReaderInput, ReaderResult, unknown_answer

MAX_STEPS = 60
"""As the graph's recursion limit: a runaway policy loop stops here."""
_SYNC_STEPS: dict[Node, steps.Step] = {
    "retrieve": steps.retrieve, "contract": steps.contract,
    "policy_gate": steps.policy_gate, "stop": steps.stop,
}


class _Capture:
    """A stand-in reader that keeps the input the generate step would send."""

    name = provider = template_version = "capture"

    def __init__(self) -> None:
        self.item: ReaderInput | None = None

    def read(self, item: ReaderInput) -> ReaderResult:
        self.item = item
        return ReaderResult(answer=unknown_answer("captured"), prompt_hash="")


class _Answered:
    """A stand-in reader that returns a result already obtained."""

    name = provider = template_version = "answered"

    def __init__(self, result: ReaderResult) -> None:
        self.result = result

    def read(self, item: ReaderInput) -> ReaderResult:
        return self.result


async def _generate(episode: Episode, ctx: AgentContext) -> EpisodeUpdate:
    aread = getattr(ctx.reader, "aread", None)
    if aread is None:  # the deterministic reader: no I/O to wait for
        return steps.generate(episode, ctx)
    capture = _Capture()
    steps.generate(episode, dataclasses.replace(ctx, reader=capture))
    assert capture.item is not None
    result = await aread(capture.item)
    return steps.generate(episode, dataclasses.replace(ctx, reader=_Answered(result)))


async def run_episode(ctx: AgentContext) -> Episode:
    """One finished episode for ``ctx``'s task."""
    episode = steps.initial_episode(ctx.task)
    for _ in range(MAX_STEPS):
        node = episode["next"]
        if node == "done":
            return episode
        update = await _generate(episode, ctx) if node == "generate" else \
            _SYNC_STEPS[node](episode, ctx)
        episode = steps.merge(episode, update)
    raise RuntimeError(f"{ctx.task.task_id}: the agent did not finish in {MAX_STEPS} steps")

