"""Run the matrix models x scenarios x contract modes x arms x tasks into a run store.

Records are written as they finish, in small transactions; cells already in the store are
skipped, so re-running the same command resumes and never duplicates. A store created with
another configuration is refused rather than mixed.

The cells and the runner that makes each a record are in :mod:`simulator.runner.cells`
(re-exported here); this module is the deterministic loop, and hands runs with a live
reader to :mod:`simulator.runner.live`, which uses the same runner.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from simulator.agents.registry import AgentSpec
from simulator.corpus import Corpus
from simulator.live.loop import blocking_runs
from simulator.runner.cells import Cell, MatrixRunner, RunSummary, cells, validate_config
from simulator.runner.collector import gc_tuned
from simulator.runner.config import RunConfig
from simulator.runner.lock import holds_run_dir
from simulator.runner.manifest import check_or_write_manifest
from simulator.runner.record import RunRecord
from simulator.runner.store import RunStore

__all__ = ["BATCH_SIZE", "Cell", "MatrixRunner", "RunSummary", "cells", "run_matrix",
           "validate_config"]

BATCH_SIZE = 40
"""Episodes per graph invoke: amortizes LangGraph's per-step cost, keeps progress smooth."""
FLUSH_EVERY = 120
FLUSH_SECONDS = 1.0


@holds_run_dir
def run_matrix(config: RunConfig, out: Path, *, progress: bool | None = None,
               corpus: Corpus | None = None,
               on_record: Callable[[RunRecord], None] | None = None,
               agent: AgentSpec | None = None) -> RunSummary:
    """Run (or resume) the matrix into ``out``; return what was done.

    Runs with a live (chat-model) reader go through the concurrent live runner, which
    runs each record through the same compiled graph with budgets, retries and the call
    cache.
    """
    from simulator.live.options import is_live

    if is_live(config.models):
        from simulator.runner.live import run_live_matrix

        return run_live_matrix(config, out, progress=progress, corpus=corpus,
                               on_record=on_record)
    started = time.perf_counter()
    runner = MatrixRunner(config, corpus, agent)
    with RunStore(out) as store:
        check_or_write_manifest(store, config, runner.corpus, runner.run_id,
                                runner.template_versions, agent=runner.agent)
        done = store.keys()
        todo = [c for c in cells(config, runner.corpus) if c.key.as_str() not in done]
        total = len(todo) + len(done)
        written = 0
        buffer: list[RunRecord] = []
        last_flush = time.monotonic()
        bar = _progress(len(todo), len(done), progress)
        try:
            with gc_tuned(), blocking_runs() as run_batch:
                for start in range(0, len(todo), BATCH_SIZE):
                    batch = run_batch(runner.arun_cells(todo[start:start + BATCH_SIZE]))
                    buffer.extend(batch)
                    if on_record is not None:
                        for record in batch:
                            on_record(record)
                    bar.update(len(batch))
                    if (len(buffer) >= FLUSH_EVERY
                            or time.monotonic() - last_flush > FLUSH_SECONDS):
                        written += store.add(buffer)
                        buffer.clear()
                        last_flush = time.monotonic()
        finally:
            if buffer:
                written += store.add(buffer)
            bar.close()
        agent_errors, first_agent_error = store.errors("agent_error")
    return RunSummary(runner.run_id, Path(out), total, len(done), written,
                      time.perf_counter() - started, agent_errors, first_agent_error)


def _progress(todo: int, done: int, enabled: bool | None) -> Any:
    from tqdm import tqdm

    # disable=None lets tqdm show the bar on a terminal only.
    return tqdm(total=todo + done, initial=done, unit="rec", leave=False, dynamic_ncols=True,
                disable=None if enabled is None else not enabled)
