"""``layerrag run --suite cases``: the multi-turn cases suite, then its report.

The single-turn matrix's runner, report and exit codes stay where they are; this module is
the cases suite's half of ``layerrag run`` (simulator/conversations/ does the work).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable

from simulator.runner.config import RunConfig


def run_cases_command(config: RunConfig, args: argparse.Namespace,
                      progress: bool | None) -> int:
    from simulator.cli.show_cmd import where_next
    from simulator.conversations.run import run_cases
    from simulator.live.errors import BudgetExhausted, ProviderRefusing
    from simulator.live.options import is_live
    from simulator.report.cases import cases_report_from_store
    from simulator.report.cases_markdown import render_cases_report
    from simulator.runner.live import EXIT_BUDGET, EXIT_PROVIDER_ERRORS, EXIT_PROVIDER_REFUSING
    from simulator.runner.store import RunStore

    options = None
    if is_live(config.models):
        from simulator.cli.live_options import live_options_from_args

        options = live_options_from_args(args)
    try:
        summary = run_cases(config, args.out, progress=_progress_line(progress),
                            options=options)
    except (BudgetExhausted, ProviderRefusing) as stop:  # every finished turn is stored
        print(f"stopped: {stop}; re-run the same command to resume", file=sys.stderr)
        return EXIT_BUDGET if isinstance(stop, BudgetExhausted) else EXIT_PROVIDER_REFUSING
    print(f"{summary.run_id}: {summary.written} turns written, {summary.already_done} "
          f"already done, {summary.total} in the suite ({summary.seconds:.1f} s) -> "
          f"{summary.run_dir}", file=sys.stderr)
    print(where_next(args.out), file=sys.stderr)
    if args.format == "json":
        print(cases_report_from_store(args.out).model_dump_json(indent=2))
    elif args.format != "none":
        sys.stdout.write(render_cases_report(cases_report_from_store(args.out)))
    with RunStore(args.out, create=False) as store:
        provider_errors, first = store.errors("provider_error")
    if provider_errors:
        print(f"{provider_errors} turn(s) are provider errors (first: {first}); re-run the "
              "same command to retry them", file=sys.stderr)
        return EXIT_PROVIDER_ERRORS
    return summary.exit_code


def _progress_line(progress: bool | None) -> Callable[[int, int], None] | None:
    """A status line on stderr per turn position stored (none with --no-progress)."""
    if progress is False:
        return None
    started = time.perf_counter()

    def report(done: int, total: int) -> None:
        print(f"cases: {done}/{total} turns ({time.perf_counter() - started:.1f} s)",
              file=sys.stderr, flush=True)

    return report
