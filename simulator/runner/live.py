"""Run the matrix with live models: concurrent, rate-limited, budgeted, resumable.

``run_live_matrix`` is ``run_matrix`` for chat readers. It reuses the same pieces (the
``MatrixRunner`` with its tool chains, gates and readers, ``cells``, the manifest, the run
store and the scorer) and runs up to ``concurrency`` records at once as tasks on the live
loop (:mod:`simulator.live.loop`), where a record's time is spent awaiting its provider.
Records are written as they finish, in small transactions.

It stops early, cleanly and resumably, when
- the call budget is spent (``stopped="budget"``; raise the budget and re-run),
- the user presses Ctrl-C (``"interrupted"``: in-flight records finish and are saved;
  a second Ctrl-C cancels them, ``"abandoned"``),
and raises (after saving what finished) on a replay miss, a provider that rejects the run
(bad key, unknown model), or a bug. Before the first record, a preflight request per model
checks that the server and model answer (and fixes the structured-output method, recorded
in the manifest): a failure is one line and nothing is written. Resuming skips every stored
record except provider errors, which are retried together with the records that share
their prompt (``keep_provider_errors`` keeps them); the budget counts cumulatively per run
directory. A run that ends with provider errors in its store exits with code 4.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, cast

from simulator.agent.graph import arun_episodes
from simulator.corpus import Corpus
from simulator.live import loop as live_loop
from simulator.live.budget import Spend, read_spend
from simulator.live.errors import BudgetExhausted, ProviderRefusing, ReplayMiss
from simulator.live.options import LiveOptions, is_live  # noqa: F401  (re-exported)
from simulator.live.services import LiveServices, build_services, use_services
from simulator.runner.cells import Cell, MatrixRunner, RunSummary, cells
from simulator.runner.collector import gc_tuned
from simulator.runner.config import RunConfig
from simulator.runner.lock import holds_run_dir
from simulator.runner.manifest import check_or_write_manifest, recorded_structured_output
from simulator.runner.progress import (
    LiveProgress,
    RequestCountingStats,
    count_requests,
    warnings_through,
)
from simulator.runner.record import RunRecord
from simulator.runner.store import STORE_FILE, RunStore

SPEND_FILE = "live_spend.json"
"""Cumulative provider spend of a run directory (calls, tokens, cost), for the budget."""
EXIT_BUDGET = 3
"""``layerrag run`` exit code when the budget stopped the run (resumable)."""
EXIT_PROVIDER_ERRORS = 4
"""``layerrag run`` exit code when the matrix is complete but some records are provider
errors (re-run the same command to retry them)."""
EXIT_PROVIDER_REFUSING = 7
"""``layerrag run`` exit code when the same provider error answered every call of a streak
(simulator/live/streak.py): fix the server, then re-run the same command to resume."""
EXIT_INTERRUPTED = 130
FLUSH_EVERY = 100
FLUSH_SECONDS = 0.5

Stop = Literal["budget", "refusing", "interrupted", "abandoned"]
_RESUME_HINT: dict[str, str] = {
    "budget": "raise --max-calls/--max-tokens and re-run the same command to resume",
    "refusing": "fix it and re-run the same command to resume (the failed records are "
                "retried)",
    "interrupted": "re-run the same command to resume",
    "abandoned": "re-run the same command to resume",
}


@dataclass
class LiveRunSummary(RunSummary):
    stopped: Stop | None = None
    """None when the matrix is complete."""
    message: str = ""
    spent: Spend = field(default_factory=Spend)
    """Cumulative spend of the run directory, this invocation included."""
    stats: dict[str, int] = field(default_factory=dict)
    """This invocation's requests, cache hits, provider and reader errors."""
    provider_errors: int = 0
    """Records of the run directory stored as provider errors when this invocation ended."""
    first_provider_error: str | None = None
    """The first of them's reason, with the server's own words (record order)."""
    structured_output: dict[str, str] = field(default_factory=dict)
    """The structured-output method each chat reader used (the run's manifest has it)."""
    tool_call_mode: dict[str, str] = field(default_factory=dict)
    """How each model was asked for tool calls (live tool-calling agents; the manifest)."""

    @property
    def exit_code(self) -> int:
        if self.stopped is None:
            return EXIT_PROVIDER_ERRORS if self.provider_errors else super().exit_code
        return {"budget": EXIT_BUDGET, "refusing": EXIT_PROVIDER_REFUSING}.get(
            self.stopped, EXIT_INTERRUPTED)


def load_spend(run_dir: Path) -> Spend:
    return read_spend(Path(run_dir) / SPEND_FILE)


async def _counted(runner: MatrixRunner, cell: Cell) -> tuple[RunRecord, int]:
    """The record of ``cell`` and how many provider requests it sent (for the ETA)."""
    requests = count_requests()  # this task's own context
    record = await run_record(runner, cell)
    return record, requests[0]


async def run_record(runner: MatrixRunner, cell: Cell) -> RunRecord:
    """The scored record of ``cell``, as ``runner.run_cell`` would produce it."""
    started = time.perf_counter()
    if runner.agent.kind == "tool_calling":
        episode = await runner.arun_tool_agent(cell)
    else:  # the same compiled graph as the deterministic matrix, one episode per ainvoke
        (episode,) = await arun_episodes(runner.graph, [runner.context(cell)])
    return runner.score(cell, episode, (time.perf_counter() - started) * 1000)


@holds_run_dir
def run_live_matrix(config: RunConfig, out: Path | str, *, options: LiveOptions | None = None,
                    progress: bool | None = None, corpus: Corpus | None = None,
                    on_record: Callable[[RunRecord], None] | None = None,
                    sleep: Callable[[float], None] | None = None) -> LiveRunSummary:
    """Run (or resume) the matrix into ``out`` with live readers; return what was done.

    ``sleep`` replaces the waits between attempts and of the rate limiter: tests pass a
    recorder to assert the backoff without waiting. ``on_record`` runs on the live loop.
    """
    started = time.perf_counter()
    out = Path(out)
    options = options or LiveOptions()
    services = build_services(options, spent=load_spend(out), sleep=sleep,
                              spend_ledger=out / SPEND_FILE)
    services.stats = RequestCountingStats()  # the progress's ETA counts provider records
    services.structured_output.update(recorded_structured_output(out))
    services.tool_call_mode.update(recorded_structured_output(out, "tool_call_mode"))
    try:
        with use_services(services):
            runner = MatrixRunner(config, corpus)
        if not options.replay and _calls_left(runner, out, options.keep_provider_errors):
            _preflight_without_writing(runner, services, out)
        run = _LiveExecution(runner, out, services, options.concurrency, on_record, progress)
        run.retry_provider_errors = not options.keep_provider_errors
        with gc_tuned():
            _wait_forwarding_interrupts(run)
    finally:
        services.close()
    return LiveRunSummary(runner.run_id, out, run.total, run.already_done, run.written,
                          time.perf_counter() - started, *run.agent_errors,
                          stopped=run.stopped,
                          message=run.message, spent=services.budget.spent,
                          stats=services.stats.snapshot(), provider_errors=run.provider_errors,
                          first_provider_error=run.first_provider_error,
                          structured_output=dict(services.structured_output),
                          tool_call_mode=dict(services.tool_call_mode))


def _calls_left(runner: MatrixRunner, out: Path, keep_provider_errors: bool) -> bool:
    """Whether this invocation has records to run (a finished run needs no preflight)."""
    if not (out / STORE_FILE).is_file():
        return True
    with RunStore(out, create=False) as store:
        done = store.count()
        retry = not keep_provider_errors and store.provider_error_count() > 0
    return retry or done < sum(1 for _ in cells(runner.config, runner.corpus))


def _preflight_without_writing(runner: MatrixRunner, services: LiveServices,
                               out: Path) -> None:
    """Run the preflight before anything is written: a new run's spend file waits for the
    run directory (the calls are counted in memory and written with the first record)."""
    budget = services.budget
    ledger = budget.ledger
    if not out.is_dir():
        budget.ledger = None
    try:
        live_loop.run(_preflight(runner, services))
    except BudgetExhausted:
        pass  # nothing left to spend: the run itself stops at once, resumably
    finally:
        budget.ledger = ledger


async def _preflight(runner: MatrixRunner, services: LiveServices) -> None:
    """One request per chat model before the first record (simulator/readers/chat_probe.py).

    A reader fixes its structured-output method (a resumed run reuses the recorded one);
    a tool-calling agent answers through tools, so its models are only checked to answer.
    """
    from simulator.agents.tool_modes import fix_tool_call_mode
    from simulator.readers.chat import ChatReader
    from simulator.readers.chat_output import OutputMethod
    from simulator.readers.chat_probe import preflight

    async def check(reader: ChatReader) -> None:
        if runner.agent.kind == "tool_calling":
            await preflight(reader, "json_prompt")
            await fix_tool_call_mode(reader, runner.tool_specs, services)
        else:
            recorded = services.structured_output.get(reader.name)
            await reader.preflight(cast(OutputMethod | None, recorded))

    # every model at once: a run of many models waits one round trip, not one per model
    await asyncio.gather(*(check(r) for r in runner.readers.values()
                           if isinstance(r, ChatReader)))


class _LiveExecution:
    """The run's coroutine on the live loop: feed tasks, write outcomes, decide when to stop."""

    def __init__(self, runner: MatrixRunner, out: Path, services: LiveServices,
                 concurrency: int, on_record: Callable[[RunRecord], None] | None,
                 progress: bool | None) -> None:
        self.runner, self.out, self.services = runner, out, services
        self.concurrency, self.on_record, self.progress = concurrency, on_record, progress
        self.total = self.already_done = self.written = 0
        self.stopped: Stop | None = None
        self.message = ""
        self.fatal: BaseException | None = None
        self._running: dict[asyncio.Task[tuple[RunRecord, int]], Cell] = {}
        self._buffer: list[RunRecord] = []
        self.bar: LiveProgress | None = None
        self.retry_provider_errors = True
        self.provider_errors = 0
        self.first_provider_error: str | None = None
        self.agent_errors: tuple[int, str | None] = (0, None)
        self._retrying: set[str] = set()

    @property
    def halted(self) -> bool:
        """No new record starts once the run is stopping for any reason."""
        return self.stopped is not None or self.fatal is not None

    def interrupt(self, count: int) -> None:
        """Ctrl-C number ``count``: the first drains in-flight records, the second cancels."""
        if count > 1:
            self.stopped, self.message = "abandoned", "interrupted, in-flight calls abandoned"
            for task in self._running:
                task.cancel()
            return
        if self.stopped is None:
            self.stopped, self.message = "interrupted", "interrupted"
        message = (f"interrupted: finishing {len(self._running)} in-flight records "
                   "(Ctrl-C again to abandon them)")
        if self.bar is not None:
            self.bar.write(message)
        else:
            print(f"\n{message}", file=sys.stderr)

    async def execute(self) -> None:
        with RunStore(self.out) as store:
            check_or_write_manifest(store, self.runner.config, self.runner.corpus,
                                    self.runner.run_id, self.runner.template_versions,
                                    self.services.structured_output,
                                    self.services.tool_call_mode, agent=self.runner.agent)
            done = store.keys()
            if self.retry_provider_errors:
                self._retrying = store.provider_error_keys()
                done -= self._retrying
            todo = task_major([c for c in cells(self.runner.config, self.runner.corpus)
                               if c.key.as_str() not in done])
            self.total, self.already_done = len(todo) + len(done), len(done)
            bar = LiveProgress(todo, len(done), enabled=self.progress,
                               describe=self.services.budget.describe,
                               stats=self.services.stats.snapshot)
            self.bar = bar
            try:
                with warnings_through(bar):
                    await self._feed(deque(todo), store, bar)
            finally:
                for task in self._running:
                    task.cancel()
                self._flush(store)
                bar.close()
            self.provider_errors, self.first_provider_error = store.errors("provider_error")
            self.agent_errors = store.errors("agent_error")
        if self.fatal is not None:
            raise self.fatal
        if self.stopped is not None:
            self.message = (f"{self.message}: {self.written} records written, "
                            f"{len(todo) - self.written} left; {_RESUME_HINT[self.stopped]}")

    async def _feed(self, pending: deque[Cell], store: RunStore, bar: LiveProgress) -> None:
        last_flush = time.monotonic()
        while True:
            while pending and len(self._running) < self.concurrency and not self.halted:
                cell = pending.popleft()
                self._running[asyncio.create_task(_counted(self.runner, cell))] = cell
            if not self._running:
                return
            finished, _ = await asyncio.wait(self._running, timeout=FLUSH_SECONDS,
                                             return_when=asyncio.FIRST_COMPLETED)
            for task in finished:
                self._handle(self._running.pop(task), task, bar)
            bar.tick()
            if (len(self._buffer) >= FLUSH_EVERY or not self._running
                    or time.monotonic() - last_flush >= FLUSH_SECONDS):
                self._flush(store)
                last_flush = time.monotonic()

    def _handle(self, cell: Cell, task: asyncio.Task[tuple[RunRecord, int]],
                bar: LiveProgress) -> None:
        if task.cancelled():
            return
        error = task.exception()
        if error is None:
            record, requests = task.result()
            if not record.provider_error:  # the server answered this record: no streak
                self.services.failures.succeeded()
            self._buffer.append(record)
            if self.on_record is not None:
                self.on_record(record)
            bar.record_finished(record, requests)
        elif isinstance(error, BudgetExhausted | ProviderRefusing):
            if self.stopped is None:
                self.stopped = "budget" if isinstance(error, BudgetExhausted) else "refusing"
                self.message = str(error)
        elif self.fatal is None:
            if isinstance(error, ReplayMiss):
                error = error.for_record(cell.key.as_str())
            else:
                error.add_note(f"while running record {cell.key.as_str()}")
            self.fatal = error

    def _flush(self, store: RunStore) -> None:
        if self._buffer:
            self.written += store.add(self._buffer, replacing=self._retrying)
            self._buffer.clear()
        self.services.budget.checkpoint()  # the run's ledger, and its journal emptied


def task_major(todo: list[Cell]) -> list[Cell]:
    """``todo`` task by task: every record of a task's first, in matrix order within it.

    Why not the matrix order (scenario by scenario): the records that send the same prompt
    (strict and repair of a scenario that leaves the evidence alone, arms whose policies
    pass the same evidence) start together and share one call; a run stopped early
    (budget, Ctrl-C) holds every scenario, mode and arm of the tasks it reached, so its
    paired comparisons are whole; and the progress's ETA sees every kind of record from
    the start instead of guessing the later scenarios' share of cached and no-prompt
    records (a scenario-major small-model run estimated 40 minutes for a run that took 8).
    """
    position: dict[str, int] = {}
    for cell in todo:
        position.setdefault(cell.task.task_id, len(position))
    return sorted(todo, key=lambda cell: position[cell.task.task_id])


def _wait_forwarding_interrupts(run: _LiveExecution) -> None:
    """Wait for the run on the live loop; pass each Ctrl-C on to it instead of raising.

    Signal handlers run in the main thread, which here only waits: counting presses and
    forwarding them means no outcome is ever lost half-handled.
    """
    future = live_loop.submit(run.execute())
    forwarded = 0
    try:
        with _sigint_counter() as presses:
            while True:
                try:
                    return future.result(timeout=0.1)
                except concurrent.futures.TimeoutError:
                    pass
                if presses() > forwarded:
                    forwarded = presses()
                    live_loop.live_loop().call_soon_threadsafe(run.interrupt, forwarded)
    except BaseException:
        future.cancel()  # e.g. a KeyboardInterrupt where no handler could be installed
        raise


@contextlib.contextmanager
def _sigint_counter() -> Iterator[Callable[[], int]]:
    """Count Ctrl-C presses (main thread only; elsewhere Ctrl-C is left alone)."""
    count = [0]

    def on_sigint(signum: int, frame: Any) -> None:
        count[0] += 1

    try:
        previous = signal.signal(signal.SIGINT, on_sigint)
    except ValueError:  # not the main thread
        yield lambda: count[0]
        return
    try:
        yield lambda: count[0]
    finally:
        signal.signal(signal.SIGINT, previous)
