"""``layerrag report RUN_DIR``: every aggregate of a run, as tables (and plots).

The run's records are turned into archive rows in memory and go through the same code as
``layerrag archive recompute``, so the report equals a recompute of the run's archive.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from simulator.cli.judge_cmd import add_weights_option
from simulator.cli.paths import check_output_dir
from simulator.errors import UsageError
from simulator.report.cli_support import add_report_options, chosen_format, emit, write_utf8

EXAMPLES = """examples:
  layerrag report runs/deterministic                 # one table per arm, one-line notes
  layerrag report runs/deterministic --full          # every table
  layerrag report runs/deterministic --format latex > tables.tex
  layerrag report runs/deterministic --plots runs/deterministic/plots
  layerrag report runs/models --bootstrap crossed   # several models, same policy units
  layerrag report runs/deterministic runs/react      # agents side by side
  layerrag report runs/deterministic --judge deterministic   # with a judge's stored scores
"""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "report", help="tables and plots of a run",
        description="By default one table per arm: strict success, the paired repair - "
                    "strict effect with its bootstrap interval, safe resolution, "
                    "groundedness false positives and provider / reader errors per "
                    "scenario, then the specificity margin and one-line notes. --full adds "
                    "every table: scenario x mode detail, paired effects (nested or crossed "
                    "bootstrap, each saying how many model units it covers), failure "
                    "layers, model and provider averages, the largest gains, prompt hashes.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("run_dirs", metavar="RUN_DIR", nargs="+",
                        help="a run directory (runs.sqlite); several runs of different "
                             "agents on the same tasks are reported side by side")
    add_report_options(parser)
    parser.add_argument("--judge", metavar="NAME",
                        help="add the judge tables of NAME's judgments stored in the run "
                             "(deterministic, or the model of an LLM judge; made by layerrag "
                             "judge RUN_DIR --judge NAME, no judge call here)")
    add_weights_option(parser, "the judge tables' S_final")
    parser.set_defaults(func=_report)


def _report(args: argparse.Namespace) -> int:
    chosen_format(args)
    check_output_dir(args.plots, "--plots")
    from simulator.report.build import report_from_runs

    if args.judge is None and args.weights != "paper":
        raise UsageError("--weights applies to the judge tables: add --judge NAME")
    if len(args.run_dirs) == 1 and _cases_run(args.run_dirs[0]):
        return _cases_report(args)
    report = report_from_runs(args.run_dirs, replicates=args.replicates, seed=args.seed,
                              bootstrap=args.bootstrap, judge=args.judge,
                              weights=args.weights)
    return emit(report, args)


def print_run_report(run_dir: Path | str, fmt: str = "md", *, replicates: int = 2000,
                     seed: int = 0, full: bool = False) -> None:
    """Print the report of ``run_dir`` on stdout: what ``layerrag run`` shows at the end
    (concise unless ``full``)."""
    from simulator.report.build import report_from_store
    from simulator.report.render import render

    write_utf8(render(report_from_store(run_dir, replicates=replicates, seed=seed), fmt,
                      full=full))


def _cases_run(run_dir: str) -> bool:
    from simulator.report.cases import is_cases_run
    from simulator.runner.store import RunStore

    try:
        with RunStore(run_dir, create=False) as store:
            return is_cases_run(store.manifest())
    except UsageError:
        return False  # not a run store: the single-run report says why


def _cases_report(args: argparse.Namespace) -> int:
    """A cases run's report (--format md or json; its tables are the cases suite's), with
    a judge's stored tables under --judge."""
    from simulator.report.cases import cases_report_from_store
    from simulator.report.cases_markdown import render_cases_report
    from simulator.report.judge_section import judge_section, render_judge

    fmt = "json" if getattr(args, "json", False) else args.format
    if fmt not in ("md", "json"):
        raise UsageError(f"--format {fmt}: a cases run reports as md or json")
    run_dir = args.run_dirs[0]
    report = cases_report_from_store(run_dir, replicates=args.replicates, seed=args.seed)
    if args.judge is not None:
        report = report.model_copy(update={"judge": judge_section(
            run_dir, args.judge, args.weights, replicates=args.replicates, seed=args.seed)})
    if fmt == "json":
        write_utf8(report.model_dump_json(indent=2) + "\n")
    else:
        write_utf8(render_cases_report(report) + "\n".join(render_judge(report.judge)))
    return 0
