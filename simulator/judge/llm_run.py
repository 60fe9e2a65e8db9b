"""Judge an existing run with an LLM judge: concurrently, resumably, on its own budget.

Records that measured nothing (agent, provider, reader errors) and records without a stored
trajectory (the judge needs the evidence the agent saw) are unjudged without a call.
Judgments are written in chunks as they come, so a budget stop (exit 3), an interrupt or a
kill loses at most the chunk in flight; a re-run skips every record this judge already
judged under the same rubric hash (and retries those a provider failure left unjudged),
so resuming sends no request twice. The judge's spend is its own ledger in the run
directory (:data:`JUDGE_SPEND_FILE`), apart from the agent's ``live_spend.json``.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from simulator.judge.deterministic import error_reason
from simulator.judge.llm import PROVIDER_ERROR, LLMJudge
from simulator.judge.llm_prompt import JudgeInput, judge_input
from simulator.judge.model import Judgment
from simulator.judge.run import JudgedRecord, StoredRecord, run_cases_of, stored_records
from simulator.judge.store import read_judgments, write_judgments
from simulator.live import loop as live_loop
from simulator.live.errors import LiveStop
from simulator.runner.store import RunStore
from simulator.runner.trajectory.select import parse_trajectory

JUDGE_SPEND_FILE = "judge_spend.json"
CHUNK = 32
"""Most judgments per write (four per concurrent call below that): what a kill can lose at
most."""


@dataclass
class Pending:
    """A record the judge still has to call for."""

    index: int
    stored: StoredRecord
    item: JudgeInput


@dataclass
class LLMJudgeRun:
    """What one invocation did: every record's judgment, and how it was reached."""

    judged: list[JudgedRecord]
    resumed: int = 0
    """Judgments taken from the store (an earlier invocation made them)."""
    called: int = 0
    """Records judged by this invocation (from the cache or by requests)."""
    stored: bool = False
    stopped: LiveStop | None = None
    items: dict[str, JudgeInput] = field(default_factory=dict)
    """The judge input of every record the judge could judge, by key (for calibration)."""


def _final(judgment: Judgment, rubric: str) -> bool:
    """A stored judgment a re-run keeps: this rubric's, and not a provider failure."""
    return judgment.rubric_hash == rubric and not (
        judgment.status == "unjudged" and (judgment.reason or "").startswith(PROVIDER_ERROR))


def plan(store: RunStore, judge: LLMJudge, *, resume: bool = True
         ) -> tuple[list[JudgedRecord | None], list[Pending], dict[str, JudgeInput], int]:
    """Each record's judgment when known without a call, the records left to call, the
    judge inputs, and how many judgments were resumed from the store."""
    records = stored_records(store)
    corpus = run_cases_of(store)
    cases = {c.case_id: c for c in corpus.cases} if corpus is not None else {}
    paths = store.trajectories(s.key for s in records if s.record is not None)
    done = ({j.key: j for j in read_judgments(store, judge.name)
             if _final(j, judge.rubric_hash)} if resume else {})
    out: list[JudgedRecord | None] = []
    pending: list[Pending] = []
    items: dict[str, JudgeInput] = {}
    resumed = 0
    for stored in records:
        record = stored.record
        why = (stored.unreadable if record is None else error_reason(record))
        trajectory = None if why is not None else parse_trajectory(store, paths.get(stored.key))
        if why is None and trajectory is None:
            why = ("no trajectory stored (a store from before trajectories): the LLM judge "
                   "needs the evidence the agent saw")
        if why is not None or trajectory is None:
            out.append(stored.judged(judge.unjudged(stored.key, why or "unjudged")))
            continue
        turn = record.case if record is not None else None
        case = cases.get(turn.case_id) if turn is not None else None
        items[stored.key] = judge_input(trajectory, case, turn.history if turn else ())
        if stored.key in done:
            resumed += 1
            out.append(stored.judged(done[stored.key]))
        else:
            pending.append(Pending(len(out), stored, items[stored.key]))
            out.append(None)
    return out, pending, items, resumed


def judge_store_llm(store: RunStore, judge: LLMJudge, *, concurrency: int = 8,
                    write: bool = True, progress: bool | None = None) -> LLMJudgeRun:
    """Judge every record of ``store`` with ``judge`` (see the module docstring)."""
    slots, pending, items, resumed = plan(store, judge)
    write = write and not store.read_only
    if write:  # the calls-free judgments first: they are final whatever happens next
        write_judgments(store, (j.judgment for j in slots if j is not None))
    show = _Progress(len(pending), judge, progress)

    called = 0

    def done(batch: Sequence[tuple[Pending, Judgment]]) -> None:
        nonlocal called
        called += len(batch)
        for p, judgment in batch:
            slots[p.index] = p.stored.judged(judgment)
        if write:
            write_judgments(store, (j for _, j in batch))
        show.add(len(batch))

    stopped = _judge_all(judge, pending, concurrency, done)
    show.end()
    judged = [j for j in slots if j is not None]
    return LLMJudgeRun(judged, resumed=resumed, called=called, stored=write,
                       stopped=stopped, items=items)


def _judge_all(judge: LLMJudge, pending: Sequence[Pending], concurrency: int,
               done: Callable[[Sequence[tuple[Pending, Judgment]]], None], *,
               preflight: bool = True) -> LiveStop | None:
    """Judge ``pending`` ``concurrency`` at a time on the live loop (after the judge's
    preflight, once per judge), one chunk after
    another, handing each finished chunk to ``done`` on this thread (the store's); a clean
    stop (budget, replay miss, a refusing provider) ends it after the chunk in flight and
    is returned; anything else propagates."""
    if preflight and pending and not judge.services.replay:
        live_loop.run(judge.preflight())
    size = min(CHUNK, 4 * concurrency)  # a slow server still writes and reports often
    for start in range(0, len(pending), size):
        results = live_loop.run(_chunk(judge, pending[start:start + size], concurrency))
        done([r for r in results if isinstance(r, tuple)])
        failure = next((r for r in results if isinstance(r, BaseException)), None)
        if isinstance(failure, LiveStop):
            return failure
        if failure is not None:
            raise failure
    return None


async def _chunk(judge: LLMJudge, chunk: Sequence[Pending], concurrency: int
                 ) -> list[tuple[Pending, Judgment] | BaseException]:
    gate = asyncio.Semaphore(concurrency)

    async def one(p: Pending) -> tuple[Pending, Judgment]:
        async with gate:
            return p, await judge.ajudge(p.stored.key, p.item)

    return list(await asyncio.gather(*(one(p) for p in chunk), return_exceptions=True))


class _Progress:
    """A stderr line on long judging: every 5 s on a terminal, every 30 s off one (a log),
    never with ``progress=False`` (``--no-progress``)."""

    EVERY_S = 5.0

    def __init__(self, total: int, judge: LLMJudge, progress: bool | None) -> None:
        self.total, self.judge, self.count = total, judge, 0
        self.started = self.last = time.perf_counter()
        self.on = progress is not False
        self.every = self.EVERY_S if (progress or sys.stderr.isatty()) else 30.0

    def add(self, n: int) -> None:
        self.count += n
        now = time.perf_counter()
        if self.on and self.total and now - self.last >= self.every:
            self.last = now
            self._line()

    def _line(self) -> None:
        stats = self.judge.services.stats.snapshot()
        print(f"judge {self.judge.name}: {self.count}/{self.total} records, "
              f"{stats.get('requests', 0)} requests, {stats.get('judge_cache_hits', 0)} "
              f"from the cache, {time.perf_counter() - self.started:.0f} s", file=sys.stderr)

    def end(self) -> None:
        if self.on and self.total and time.perf_counter() - self.started >= self.every:
            self._line()


PROBES = ("evidence_reversed", "answer_padded")
"""The two bias probes of calibration (simulator/judge/llm_prompt.py: JudgeInput)."""


def probe_items(items: dict[str, JudgeInput], probe: str) -> dict[str, JudgeInput]:
    """The probe's inputs: evidence order reversed (records with two documents or more, the
    only ones it can move), or the answer padded with true, irrelevant text."""
    if probe == "evidence_reversed":
        return {k: i.reversed_evidence() for k, i in items.items() if len(i.evidence) > 1}
    return {k: i.padded() for k, i in items.items()}


def judge_probes(judge: LLMJudge, items: dict[str, JudgeInput], *,
                 concurrency: int = 8) -> tuple[dict[str, dict[str, Judgment]],
                                                LiveStop | None]:
    """Judge each probe's inputs (cached like any judge call, stored nowhere else)."""
    out: dict[str, dict[str, Judgment]] = {}
    for probe in PROBES:
        inputs = probe_items(items, probe)
        found: dict[str, Judgment] = {}
        pending = [Pending(i, StoredRecord(k, "", "", "", "", None, None), item)
                   for i, (k, item) in enumerate(inputs.items())]

        def done(batch: Sequence[tuple[Pending, Judgment]],
                 found: dict[str, Judgment] = found) -> None:
            found.update((p.stored.key, j) for p, j in batch)

        stopped = _judge_all(judge, pending, concurrency, done)
        out[probe] = found
        if stopped is not None:
            return out, stopped
    return out, None
