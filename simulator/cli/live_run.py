"""Run the records of a command that runs records (``study focused``, ``credit``), live or
deterministic, with the command line's live options.

``layerrag run`` and the presets built on it take one option group
(:func:`simulator.cli.live_options.add_live_options`); this module turns it into a run: the
deterministic matrix runner when every reader is local, else the live runner with the
options, its one-line summary on stderr, and its exit code (a budget stop, provider errors:
simulator/runner/live.py), so a preset never reports a live run differently from ``run``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from simulator.cli.live_options import (
    check_live_options_apply,
    generation_from_args,
    live_options_from_args,
)
from simulator.live.options import is_live

if TYPE_CHECKING:
    from simulator.corpus import Corpus
    from simulator.runner.cells import RunSummary
    from simulator.runner.config import RunConfig
    from simulator.runner.live import LiveRunSummary


class RecordsRun(NamedTuple):
    """How a run of records ended: its exit code, whether every record is stored, and the
    live run's summary (None for a deterministic run)."""

    exit_code: int
    complete: bool
    summary: RunSummary | None = None
    """What the run did (None when nothing was run: ``credit --run``)."""

    @property
    def live(self) -> LiveRunSummary | None:
        """The live run's summary, or None for a deterministic run."""
        from simulator.runner.live import LiveRunSummary

        return self.summary if isinstance(self.summary, LiveRunSummary) else None


def generation_for(args: argparse.Namespace, models: tuple[str, ...]) -> dict[str, object]:
    """The generation settings for ``models`` (part of the run id; empty when none is
    live), after refusing live options given for a deterministic reader."""
    check_live_options_apply(args, models)
    return generation_from_args(args) if is_live(models) else {}


def run_records(config: RunConfig, out: Path, args: argparse.Namespace, *,
                progress: bool | None, corpus: Corpus | None = None) -> RecordsRun:
    """Run (or resume) ``config`` into ``out``; live runs get the command line's options.

    Says what is starting first (``credit``, ``study focused``): their input is checked by
    now, so a refusal before stays one line."""
    from simulator.cli.status import describe, start_line
    from simulator.runner.store import STORE_FILE, RunStore

    what = describe(args)
    if what is not None:
        if (out / STORE_FILE).exists():  # a store that is not one: refused in one line
            RunStore(out, create=False).close()
        start_line(*what, enabled=progress is not False)
    if not is_live(config.models):
        from simulator.runner.matrix import run_matrix

        done = run_matrix(config, out, progress=progress, corpus=corpus)
        return RecordsRun(done.exit_code, True, done)
    from simulator.runner.live import run_live_matrix

    summary = run_live_matrix(config, out, options=live_options_from_args(args),
                              progress=progress, corpus=corpus)
    announce_live_run(summary)
    return RecordsRun(summary.exit_code, summary.stopped is None, summary)


def announce_live_run(summary: LiveRunSummary) -> None:
    """On stderr: what the live run did and spent, the structured-output method each model
    used, and why it stopped if it did."""
    stats, spent = summary.stats, summary.spent
    print(f"{summary.run_id}: {summary.written} records written, {summary.already_done} "
          f"already done, {summary.total} in the matrix ({summary.seconds:.1f} s) -> "
          f"{summary.run_dir}; {stats.get('requests', 0)} requests, "
          f"{stats.get('cache_hits', 0)} cache hits, {stats.get('provider_errors', 0)} "
          f"calls failed after every retry, {stats.get('reader_errors', 0)} unparseable "
          f"answers; run total "
          f"{spent.calls} calls, {spent.tokens} tokens", file=sys.stderr)
    if summary.tool_call_mode:
        print("tool calls: " + ", ".join(
            f"{model} {mode}" for model, mode in sorted(summary.tool_call_mode.items())),
              file=sys.stderr)
    if summary.structured_output:
        print("structured output: " + ", ".join(
            f"{model} {method}" for model, method in sorted(summary.structured_output.items())),
              file=sys.stderr)
    if summary.stopped is not None:
        print(f"stopped: {summary.message}", file=sys.stderr)


def explain_agent_errors(summary: RunSummary | None) -> None:
    """After the tables: how many records are agent errors, the first one's reason, and
    the exit code (the report's first line says it too)."""
    if summary is not None and summary.agent_errors:
        print(f"{summary.agent_errors} of {summary.total} records are agent errors (exit "
              f"{summary.exit_code}): {summary.first_agent_error}; none counts as safe. "
              "`layerrag report RUN_DIR --full` has them per scenario (docs/agents.md)",
              file=sys.stderr)


def explain_provider_errors(summary: LiveRunSummary | None) -> None:
    """After the tables: how many records are provider errors and how to retry them."""
    if summary is not None and summary.provider_errors:
        print(f"{summary.provider_errors} records are provider errors (exit "
              f"{summary.exit_code}): re-run the same command to retry them; only their "
              "calls are sent again (--keep-provider-errors keeps them). First: "
              f"{summary.first_provider_error}", file=sys.stderr)
