"""``run_cases``: drive a :class:`~simulator.conversations.runner.CaseRunner` into a run
store, position by position, and resume.

Records are stored as each turn position finishes: a run killed mid-way resumes from the
first turn not stored, its threads rebuilt from the stored turns (each turn record keeps the
exchanges it was answered with). With live models the turns go through the live call
discipline; a live stop keeps every turn that finished and raises, so re-running resumes.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from simulator.conversations.runner import CaseCell, CaseRunner, PositionStopped, case_cells
from simulator.conversations.thread import restore
from simulator.live.loop import blocking_runs
from simulator.live.options import LiveOptions
from simulator.live.services import LiveServices
from simulator.runner.cells import RunSummary
from simulator.runner.config import RunConfig
from simulator.runner.lock import holds_run_dir
from simulator.runner.manifest import check_or_write_manifest, recorded_structured_output
from simulator.runner.record import RunRecord
from simulator.runner.store import RunStore


@holds_run_dir
def run_cases(config: RunConfig, out: Path, *, progress: Callable[[int, int], None] | None
              = None, options: LiveOptions | None = None) -> RunSummary:
    """Run (or resume) the cases suite into ``out``; what was done.

    With live models the turns go through the live call discipline of ``options`` (cache,
    retries, rate limit, budget, ``--concurrency`` turns at once), after one preflight
    request per model; a live stop (budget spent, a provider refusing the run, a replay
    miss) keeps every turn that finished and raises, so re-running resumes."""
    from simulator.live.options import is_live

    started = time.perf_counter()
    services = None
    if is_live(config.models):
        from simulator.live.services import build_services, use_services
        from simulator.runner.live import SPEND_FILE, load_spend

        options = options or LiveOptions()
        services = build_services(options, spent=load_spend(Path(out)),
                                  spend_ledger=Path(out) / SPEND_FILE)
        # a resumed run keeps the structured-output method its preflight fixed
        services.structured_output.update(recorded_structured_output(Path(out)))
        services.tool_call_mode.update(recorded_structured_output(Path(out),
                                                                  "tool_call_mode"))
        with use_services(services):
            runner = CaseRunner(config)
    else:
        runner = CaseRunner(config)
    try:
        return _run(runner, config, Path(out), progress, services, options, started)
    finally:
        if services is not None:
            services.close()


def _run(runner: CaseRunner, config: RunConfig, out: Path,
         progress: Callable[[int, int], None] | None, services: LiveServices | None,
         options: LiveOptions | None, started: float) -> RunSummary:
    cells = case_cells(config, runner.cases)
    total = sum(len(c.case.turns) for c in cells)
    written = 0
    with RunStore(out) as store:
        check_or_write_manifest(store, config, runner.matrix.corpus, runner.run_id,
                                runner.template_versions, agent=runner.matrix.agent)
        stored = _stored_turns(store)
        already = len(stored)
        with blocking_runs() as run_batch:
            if services is not None and options is not None and already < total:
                from simulator.runner.live import _preflight

                run_batch(_preflight(runner.matrix, services))
                runner.limit = asyncio.Semaphore(options.concurrency)
                check_or_write_manifest(  # records the methods the preflight fixed
                    store, config, runner.matrix.corpus, runner.run_id,
                    runner.template_versions, dict(services.structured_output),
                    dict(services.tool_call_mode), agent=runner.matrix.agent)
            run_batch(_restore_all(runner, cells, stored))
            for position in range(max(len(c.case.turns) for c in cells)):
                todo = [c for c in cells if position < len(c.case.turns)
                        and _key(c, position) not in stored]
                if not todo:
                    continue
                try:
                    records = run_batch(runner.arun_position(todo, position))
                except PositionStopped as stop:
                    store.add(stop.records)
                    raise stop.cause from None
                written += store.add(records)
                if progress is not None:
                    progress(already + written, total)
        agent_errors, first = store.errors("agent_error")
    return RunSummary(run_id=runner.run_id, run_dir=out, total=total, already_done=already,
                      written=written, seconds=time.perf_counter() - started,
                      agent_errors=agent_errors, first_agent_error=first)


def _key(cell: CaseCell, position: int) -> str:
    return f"{cell.thread_id().rsplit('|', 1)[0]}|{cell.task_id(position)}"


def _stored_turns(store: RunStore) -> dict[str, RunRecord]:
    return {r.key.as_str(): r for r in store.records() if r.case is not None}


async def _restore_all(runner: CaseRunner, cells: Sequence[CaseCell],
                       stored: dict[str, RunRecord]) -> None:
    """Rebuild the threads of conversations a killed run left part-way (or finished)."""
    for cell in cells:
        done = [stored[k] for p in range(len(cell.case.turns))
                if (k := _key(cell, p)) in stored]
        if not done:
            continue
        last = done[-1].case
        assert last is not None
        exchanges = [*last.history, (last.message, last.reply.text if last.reply else "")]
        await restore(runner.threads, cell.thread_id(), last.memory_session, exchanges)


__all__ = ["run_cases"]
