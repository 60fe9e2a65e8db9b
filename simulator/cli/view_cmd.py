"""``layerrag view RUN [RUN...] --out FILE.html``: a run's results as one page for a browser.

The page (simulator/report/view.py) needs no network and no server: it opens by
double-click, from a mail attachment or a CI artefact. Over an archive it shows the
aggregates only, because an archive keeps no trajectories.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

EXAMPLES = """examples:
  layerrag view runs/deterministic --out runs/deterministic/view.html
  layerrag view runs/gpt runs/claude --out both.html
  layerrag view archives/deterministic/deterministic.jsonl.gz --out archive.html
"""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "view", help="write one self-contained HTML page of a run: heatmap, tables, records",
        description="Write one self-contained HTML file (no network, opens by double-click): "
                    "the S heatmap by scenario and mode, the report's tables, and a record "
                    "browser with filters where a record opens with its trajectory beside "
                    "its clean twin. Over an archive: the aggregates only.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", metavar="RUN", nargs="+", type=Path,
                        help="run directories (runs.sqlite), or one archive (.jsonl.gz)")
    parser.add_argument("--out", type=Path, required=True, metavar="FILE.html",
                        help="the page to write")
    parser.add_argument("--replicates", type=int, default=2000,
                        help="bootstrap replicates of the tables (default 2000)")
    parser.set_defaults(func=_view)


def _view(args: argparse.Namespace) -> int:
    from simulator.cli.paths import check_output_file
    from simulator.errors import UsageError
    from simulator.report.build import report_from_archive, report_from_runs
    from simulator.report.view import build_page, run_records

    check_output_file(args.out, "--out")
    if args.replicates < 1:
        raise UsageError(f"--replicates must be at least 1, got {args.replicates}")
    started = time.perf_counter()
    _refuse_cases(args.runs)
    archives = [p for p in args.runs if p.is_file()]
    if archives:
        if len(args.runs) > 1:
            raise UsageError(f"{archives[0]}: an archive is viewed on its own (give one "
                             "archive, or run directories only)")
        report = report_from_archive(archives[0], replicates=args.replicates)
        page = build_page(report, title=f"layerrag: {archives[0].name}", records=None,
                          total=0, archive_note="This page was made from an archive, which "
                          "keeps no trajectories (they are evaluator-side): aggregates only. "
                          "View the run directory to browse its records.")
    else:
        missing = [p for p in args.runs if not p.is_dir()]
        if missing:
            raise UsageError(f"{missing[0]}: no such run directory")
        report = report_from_runs(args.runs, replicates=args.replicates)
        records, total = run_records(args.runs)
        page = build_page(report, title="layerrag: " + ", ".join(p.name for p in args.runs),
                          records=records, total=total)
    args.out.write_text(page, encoding="utf-8")
    size = args.out.stat().st_size
    shown = f"{size / 1e6:.1f} MB" if size >= 100_000 else f"{size / 1e3:.0f} KB"
    print(f"wrote {args.out} ({shown}) in {time.perf_counter() - started:.1f} s; "
          "open it in a browser (no network needed)", file=sys.stderr)
    return 0


def _refuse_cases(paths: list[Path]) -> None:
    """The page renders the single-turn report (an S heatmap): a cases run's clarify and
    abstain turns would read as failures there, so it is refused, saying what reads it."""
    from simulator.archive.codec import load_archive
    from simulator.errors import UsageError
    from simulator.report.cases import is_cases_archive, is_cases_run
    from simulator.runner.store import RunStore

    for path in paths:
        if path.is_file():
            cases = is_cases_archive(load_archive(path).rows)
        elif (path / "runs.sqlite").is_file():
            with RunStore(path, create=False) as store:
                cases = is_cases_run(store.manifest())
        else:
            continue
        if cases:
            raise UsageError(f"{path}: the viewer has no page for a cases run yet (issue 29); "
                             "layerrag report and layerrag show --failed read it turn by turn")
