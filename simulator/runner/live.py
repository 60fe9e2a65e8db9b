"""Run the matrix with live models: concurrent, rate-limited, budgeted, resumable.

``run_live_matrix`` is ``run_matrix`` for chat readers. It reuses the same pieces (the
``MatrixRunner`` with its compiled graph, ``cells``, the manifest and the run store) and
runs ``runner.run_cell`` on a pool of worker threads, since a record's time is spent
waiting for a provider. Records are written by the main thread as they finish.

It stops early, cleanly and resumably, when
- the call budget is spent (``stopped="budget"``; raise the budget and re-run),
- the user presses Ctrl-C (``"interrupted"``: in-flight calls finish and are saved;
  a second Ctrl-C abandons them, ``"abandoned"``),
and raises (after saving what finished) on a replay miss, a provider that rejects the run
(bad key, unknown model), or a bug. Resuming skips every stored record, so no finished
record ever calls a provider again; the budget counts cumulatively per run directory.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from simulator.corpus import Corpus
from simulator.live.budget import Spend
from simulator.live.errors import BudgetExhausted, CallsAbandoned, ReplayMiss
from simulator.live.options import LiveOptions, is_live  # noqa: F401  (re-exported)
from simulator.live.pool import Outcome, WorkerPool
from simulator.live.services import LiveServices, build_services, use_services
from simulator.runner.config import RunConfig
from simulator.runner.manifest import check_or_write_manifest
from simulator.runner.matrix import Cell, MatrixRunner, RunSummary, cells
from simulator.runner.record import RunRecord
from simulator.runner.store import RunStore

SPEND_FILE = "live_spend.json"
"""Cumulative provider spend of a run directory (calls, tokens, cost), for the budget."""
EXIT_BUDGET = 3
"""``layerrag run`` exit code when the budget stopped the run (resumable)."""
EXIT_INTERRUPTED = 130

Stop = Literal["budget", "interrupted", "abandoned"]


@dataclass
class LiveRunSummary(RunSummary):
    stopped: Stop | None = None
    """None when the matrix is complete."""
    message: str = ""
    spent: Spend = field(default_factory=Spend)
    """Cumulative spend of the run directory, this invocation included."""
    stats: dict[str, int] = field(default_factory=dict)
    """This invocation's requests, cache hits, provider and reader errors."""

    @property
    def exit_code(self) -> int:
        return {None: 0, "budget": EXIT_BUDGET}.get(self.stopped, EXIT_INTERRUPTED)


def load_spend(run_dir: Path) -> Spend:
    path = Path(run_dir) / SPEND_FILE
    return Spend.model_validate_json(path.read_text()) if path.is_file() else Spend()


def save_spend(run_dir: Path, spend: Spend) -> None:
    path = Path(run_dir) / SPEND_FILE
    tmp = path.with_suffix(".tmp")
    tmp.write_text(spend.model_dump_json(indent=1))
    os.replace(tmp, path)


def run_live_matrix(config: RunConfig, out: Path | str, *, options: LiveOptions | None = None,
                    progress: bool | None = None, corpus: Corpus | None = None,
                    on_record: Callable[[RunRecord], None] | None = None,
                    sleep: Callable[[float], None] | None = None) -> LiveRunSummary:
    """Run (or resume) the matrix into ``out`` with live readers; return what was done.

    ``sleep`` replaces the waits between attempts (and of the rate limiter): tests pass a
    recorder to assert the backoff without waiting.
    """
    started = time.perf_counter()
    out = Path(out)
    options = options or LiveOptions()
    services = build_services(options, spent=load_spend(out), sleep=sleep)
    try:
        with use_services(services):
            runner = MatrixRunner(config, corpus)
        with RunStore(out) as store:
            check_or_write_manifest(store, config, runner.corpus, runner.run_id)
            done = store.keys()
            todo = [c for c in cells(config, runner.corpus) if c.key.as_str() not in done]
            run = _LiveExecution(runner, store, services, options.concurrency, on_record)
            bar = _progress(len(todo), len(done), progress)
            try:
                stopped, message = run.execute(todo, bar)
            finally:
                bar.close()
                save_spend(out, services.budget.spent)
    finally:
        services.close()
    return LiveRunSummary(runner.run_id, out, len(todo) + len(done), len(done), run.written,
                          time.perf_counter() - started, stopped=stopped, message=message,
                          spent=services.budget.spent, stats=services.stats.snapshot())


class _LiveExecution:
    """The main thread's loop: feed the pool, write outcomes, decide when to stop."""

    def __init__(self, runner: MatrixRunner, store: RunStore, services: LiveServices,
                 concurrency: int, on_record: Callable[[RunRecord], None] | None) -> None:
        self.runner, self.store, self.services = runner, store, services
        self.concurrency, self.on_record = concurrency, on_record
        self.written = 0
        self.stopped: Stop | None = None
        self.message = ""
        self.fatal: BaseException | None = None
        self._interrupts = 0
        self._buffer: list[RunRecord] = []

    @property
    def halted(self) -> bool:
        """No new record starts once the run is stopping for any reason."""
        return self.stopped is not None or self.fatal is not None

    def execute(self, todo: list[Cell], bar: Any) -> tuple[Stop | None, str]:
        pool: WorkerPool[Cell, RunRecord] = WorkerPool(
            self.runner.run_cell, min(self.concurrency, max(len(todo), 1)))
        pending, in_flight = deque(todo), 0
        try:
            with _sigint_counter() as interrupts:
                while True:
                    if interrupts() > self._interrupts:
                        self._interrupt(interrupts(), in_flight)
                    while pending and in_flight < self.concurrency and not self.halted:
                        pool.submit(pending.popleft())
                        in_flight += 1
                    if in_flight == 0 or self.stopped == "abandoned":
                        break
                    outcome = pool.take(timeout=0.1)
                    while outcome is not None:
                        in_flight -= 1
                        self._handle(outcome, bar)
                        outcome = pool.take(timeout=0) if len(self._buffer) < 100 else None
                    self._flush()
        finally:
            pool.close()
            self._flush()
        if self.fatal is not None:
            raise self.fatal
        if self.stopped is not None:
            left = len(todo) - self.written
            self.message = (f"{self.message}: {self.written} records written, {left} left; "
                            + _RESUME_HINT[self.stopped])
        return self.stopped, self.message

    def _handle(self, outcome: Outcome[Cell, RunRecord], bar: Any) -> None:
        cell, record, error = outcome
        if record is not None:
            self._buffer.append(record)
            if self.on_record is not None:
                self.on_record(record)
            bar.update(1)
            bar.set_postfix_str(self._postfix(), refresh=False)
        elif isinstance(error, BudgetExhausted):
            if self.stopped is None:
                self.stopped, self.message = "budget", str(error)
        elif isinstance(error, CallsAbandoned) or error is None or self.fatal is not None:
            return
        elif isinstance(error, ReplayMiss):
            self.fatal = error.for_record(cell.key.as_str())
        else:
            error.add_note(f"while running record {cell.key.as_str()}")
            self.fatal = error

    def _interrupt(self, count: int, in_flight: int) -> None:
        self._interrupts = count
        if count > 1:
            self.services.abandon.set()
            self.stopped, self.message = "abandoned", "interrupted, in-flight calls abandoned"
            return
        if self.stopped is None:
            self.stopped, self.message = "interrupted", "interrupted"
        print(f"\ninterrupted: finishing {in_flight} in-flight records "
              "(Ctrl-C again to abandon them)", file=sys.stderr)

    def _flush(self) -> None:
        if self._buffer:
            self.written += self.store.add(self._buffer)
            self._buffer.clear()

    def _postfix(self) -> str:
        stats = self.services.stats.snapshot()
        parts = [self.services.budget.describe()]
        for name, label in (("cache_hits", "cached"), ("provider_errors", "provider err"),
                            ("reader_errors", "reader err")):
            if stats.get(name):
                parts.append(f"{label} {stats[name]}")
        return " ".join(parts)


_RESUME_HINT: dict[str, str] = {
    "budget": "raise --max-calls/--max-tokens and re-run the same command to resume",
    "interrupted": "re-run the same command to resume",
    "abandoned": "re-run the same command to resume",
}


@contextlib.contextmanager
def _sigint_counter() -> Iterator[Callable[[], int]]:
    """Count Ctrl-C presses instead of raising, so no outcome is lost mid-bookkeeping.

    Only the main thread may install a signal handler; elsewhere Ctrl-C is left alone.
    """
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


def _progress(todo: int, done: int, enabled: bool | None) -> Any:
    from tqdm import tqdm

    return tqdm(total=todo + done, initial=done, unit="rec", leave=False, dynamic_ncols=True,
                smoothing=0.1, disable=None if enabled is None else not enabled)
