"""``layerrag show RUN_DIR``: what the agent was asked, did, saw and answered, record by record.

Reads the trajectories the run store keeps beside each record (simulator/runner/
trajectory/), with filters on the cell and on failure, optionally beside each record's
clean twin. Nothing is recomputed: the verdict shown is the one stored at scoring time.
An archive has no trajectories (they are evaluator-side), so it is refused by name.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

EXAMPLES = """examples:
  layerrag show runs/deterministic --failed --scenario stale_index --limit 1
  layerrag show runs/deterministic --scenario wrong_session --mode repair --twin
  layerrag show runs/deterministic --task task_79aabbe72f47 --limit 0 --json
"""
DEFAULT_LIMIT = 10


def where_next(run_dir: Path) -> str:
    """The line ``layerrag run`` ends with: where to look at what the agent did."""
    return (f"next: layerrag show {run_dir} --failed (what the agent did in each failure); "
            f"layerrag view {run_dir} --out {run_dir}/view.html (a page for the browser)")


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "show", help="print records' trajectories: calls, results, faults, answer, verdict",
        description="Print the trajectories of a run's records: the question, each tool "
                    "call with its arguments, what came back and what each fault did to "
                    "it, the policy decisions, the answer, and each score beside the "
                    "expected answer with the reason it failed. Records are in the run's "
                    "stable order (model, scenario, mode, arm, task row).",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run_dir", metavar="RUN_DIR", type=Path,
                        help="a run directory (runs.sqlite)")
    parser.add_argument("--failed", action="store_true",
                        help="only records that are not strictly successful (S false)")
    parser.add_argument("--scenario", help="only this scenario")
    parser.add_argument("--mode", help="only this contract mode (strict, repair)")
    parser.add_argument("--arm", help="only this arm")
    parser.add_argument("--model", help="only this model")
    parser.add_argument("--task", help="only this task (its id, or its row number)")
    parser.add_argument("--limit", type=int, default=DEFAULT_LIMIT,
                        help=f"at most N records (default {DEFAULT_LIMIT}; 0 for all)")
    parser.add_argument("--twin", action="store_true",
                        help="put each record beside its clean twin (same task, mode, arm)")
    parser.add_argument("--json", action="store_true",
                        help="print the records and trajectories as JSON")
    parser.set_defaults(func=_show)


def _show(args: argparse.Namespace) -> int:
    from simulator.errors import UsageError
    from simulator.runner.store import NO_TRAJECTORY, STORE_FILE, RunStore
    from simulator.runner.trajectory.select import RecordFilter, as_json, select
    from simulator.runner.trajectory.text import record_lines, side_by_side, wrapped
    from simulator.vocabulary import CLEAN_SCENARIO

    if args.limit < 0:
        raise UsageError(f"--limit must be 0 (all) or more, got {args.limit}")
    if args.run_dir.is_file():
        raise UsageError(f"{args.run_dir}: a file, not a run directory (an archive keeps "
                         "no trajectories; show needs the run directory with "
                         f"{STORE_FILE})")
    wanted = RecordFilter(model=args.model, scenario=args.scenario, mode=args.mode,
                          arm=args.arm, task=args.task, failed=args.failed,
                          limit=args.limit or None)
    with RunStore(args.run_dir, create=False) as store:
        selection = select(store, wanted, twins=args.twin)
    if args.json:
        print(json.dumps(as_json(selection), indent=1))
        return 0
    width = shutil.get_terminal_size((160, 40)).columns
    out: list[str] = []
    for shown in selection.shown:
        lines = record_lines(shown.record, shown.trajectory, no_trajectory=NO_TRAJECTORY)
        if args.twin:
            if shown.twin is None:
                why = ("this record is itself clean" if shown.record.scenario == CLEAN_SCENARIO
                       else "its clean twin is not in this run")
                out += [*wrapped(lines, width), f"   (no twin: {why})"]
            else:
                twin = record_lines(shown.twin, shown.twin_trajectory,
                                    no_trajectory=NO_TRAJECTORY)
                out += side_by_side(lines, twin, width)
        else:
            out += wrapped(lines, width)
        out.append("")
    sys.stdout.write("\n".join(out) + ("\n" if out else ""))
    more = selection.matched - len(selection.shown)
    tail = f"; {more} more (--limit N, 0 for all)" if more > 0 else ""
    note = "" if selection.has_trajectories else (
        f"; this store is older than trajectories: {NO_TRAJECTORY}")
    print(f"{len(selection.shown)} of {selection.matched} matching records shown{tail}{note}",
          file=sys.stderr)
    return 0
