"""``layerrag view RUN [RUN...] --out FILE.html``: a run's results as one page for a browser.

The page (simulator/report/view.py; a cases run's, simulator/report/cases_view.py) needs no
network and no server: it opens by double-click, from a mail attachment or a CI artefact.
Over an archive it shows the aggregates only, because an archive keeps no trajectories (and
a cases archive no messages or replies either).

A single-turn run and a cases run are read differently (records against conversations), so
one page holds one suite: inputs of both suites are refused, naming one of each.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NamedTuple

if TYPE_CHECKING:
    from simulator.archive.codec import Archive

EXAMPLES = """examples:
  layerrag view runs/deterministic --out runs/deterministic/view.html
  layerrag view runs/gpt runs/claude --out both.html
  layerrag view archives/deterministic/deterministic.jsonl.gz --out archive.html
  layerrag view runs/cases --out runs/cases/view.html       # a cases run, turn by turn
"""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "view", help="write one self-contained HTML page of a run: heatmap, tables, records",
        description="Write one self-contained HTML file (no network, opens by double-click): "
                    "the S heatmap by scenario and mode, the report's tables, and a record "
                    "browser with filters where a record opens with its trajectory beside "
                    "its clean twin. A cases run gets a resolved-cases heatmap, the cases "
                    "report's tables and a case browser where a conversation opens turn by "
                    "turn beside its clean twin. Over an archive: the aggregates only.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", metavar="RUN", nargs="+", type=Path,
                        help="run directories (runs.sqlite), or one archive (.jsonl.gz); "
                             "a cases run or archive on its own")
    parser.add_argument("--out", type=Path, required=True, metavar="FILE.html",
                        help="the page to write")
    parser.add_argument("--replicates", type=int, default=2000,
                        help="bootstrap replicates of the tables (default 2000)")
    parser.set_defaults(func=_view)


class _Input(NamedTuple):
    path: Path
    suite: Literal["cases", "single"]
    archive: Archive | None
    """The loaded archive of a file; None for a run directory."""


def _view(args: argparse.Namespace) -> int:
    from simulator.cli.paths import check_output_file
    from simulator.errors import UsageError

    check_output_file(args.out, "--out")
    if args.replicates < 1:
        raise UsageError(f"--replicates must be at least 1, got {args.replicates}")
    started = time.perf_counter()
    missing = [p for p in args.runs if not p.exists()]
    if missing:
        raise UsageError(f"{missing[0]}: no such run directory")
    archives = [p for p in args.runs if p.is_file()]
    if archives and len(args.runs) > 1:
        raise UsageError(f"{archives[0]}: an archive is viewed on its own (give one "
                         "archive, or run directories only)")
    inputs = [_classify(p) for p in args.runs]
    cases = [i for i in inputs if i.suite == "cases"]
    single = [i for i in inputs if i.suite == "single"]
    if cases and single:
        raise UsageError(f"{cases[0].path} is a cases run and {single[0].path} a single-turn "
                         "run: a page views one suite (one layerrag view for each)")
    if len(cases) > 1:
        raise UsageError(f"{cases[1].path}: a cases run is viewed on its own (one layerrag "
                         "view per cases run)")
    page, what = _cases_page(cases[0], args) if cases else _single_page(inputs, args)
    args.out.write_text(page, encoding="utf-8")
    size = args.out.stat().st_size
    shown = f"{size / 1e6:.1f} MB" if size >= 100_000 else f"{size / 1e3:.0f} KB"
    print(f"wrote {args.out} ({shown}{what}) in {time.perf_counter() - started:.1f} s; "
          "open it in a browser (no network needed)", file=sys.stderr)
    return 0


def _classify(path: Path) -> _Input:
    """Which suite ``path`` holds; an archive is loaded once, here."""
    from simulator.archive.codec import load_archive
    from simulator.report.cases import is_cases_archive, is_cases_run
    from simulator.runner.store import RunStore

    if path.is_file():
        archive = load_archive(path)
        return _Input(path, "cases" if is_cases_archive(archive.rows) else "single", archive)
    with RunStore(path, create=False) as store:
        return _Input(path, "cases" if is_cases_run(store.manifest()) else "single", None)


def _single_page(inputs: list[_Input], args: argparse.Namespace) -> tuple[str, str]:
    from simulator.report.build import build_report, report_from_runs
    from simulator.report.view import build_page, run_records

    if inputs[0].archive is not None:
        archive = inputs[0].archive
        report = build_report(archive.rows, header=archive.header, replicates=args.replicates)
        return build_page(report, title=f"layerrag: {inputs[0].path.name}", records=None,
                          total=0, archive_note="This page was made from an archive, which "
                          "keeps no trajectories (they are evaluator-side): aggregates only. "
                          "View the run directory to browse its records."), ""
    paths = [i.path for i in inputs]
    report = report_from_runs(paths, replicates=args.replicates)
    records, total = run_records(paths)
    return build_page(report, title="layerrag: " + ", ".join(p.name for p in paths),
                      records=records, total=total), ""


def _cases_page(source: _Input, args: argparse.Namespace) -> tuple[str, str]:
    """A cases run's page (and what it carries, for the closing line)."""
    from simulator.report.cases import cases_report_from_archive, cases_report_from_store
    from simulator.report.cases_conversations import run_conversations
    from simulator.report.cases_view import build_cases_page

    title = f"layerrag: {source.path.name} (cases run)"
    if source.archive is not None:
        report = cases_report_from_archive(source.archive.rows,
                                           source.archive.header.fault_turns,
                                           replicates=args.replicates)
        return build_cases_page(report, title=title, conversations=None), "; aggregates only"
    report = cases_report_from_store(source.path, replicates=args.replicates)
    conversations = run_conversations(source.path)
    carried = (f"a seeded sample of {len(conversations.shown)} of {conversations.total} "
               "conversations" if conversations.sampled
               else f"{_count(conversations.total, 'conversation')}, "
                    f"{_count(conversations.turns, 'turn')}")
    return build_cases_page(report, title=title, conversations=conversations), f", {carried}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"
