"""``layerrag archive export|recompute``: write a privacy-safe archive, or rebuild every
aggregate from one without the run, the corpus or any provider."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from simulator.cli.lists import output_path
from simulator.cli.paths import check_output_dir, check_output_file
from simulator.report.cli_support import (
    add_allow_partial_option,
    add_report_options,
    chosen_format,
    emit,
    partial_exit,
)


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    archive = subparsers.add_parser("archive", help="export or recompute a privacy-safe archive")
    sub = archive.add_subparsers(dest="archive_command", required=True, metavar="ACTION")

    export = sub.add_parser(
        "export", help="write a run's allowlisted rows to FILE.jsonl.gz",
        description="Write gzip JSON lines: a header (run, corpus hash, versions, prompt "
                    "template hashes, field list) and one allowlisted row per record. No "
                    "answer text, rationale, document ids, latency, cost or keys. The same "
                    "run always gives byte-identical bytes.",
        epilog="example: layerrag archive export runs/deterministic "
               "--out archives/deterministic/enterprise_v2.jsonl.gz",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    export.add_argument("run_dir", metavar="RUN_DIR", help="a run directory (runs.sqlite)")
    export.add_argument("--out", type=output_path, required=True, metavar="FILE",
                        help="archive file to write (.jsonl.gz)")
    export.add_argument("--judge", metavar="NAME",
                        help="add the stored judgments of this judge (deterministic, or an "
                             "LLM judge's PROVIDER:MODEL): each metric's score and band, no "
                             "justification; the header names the judge and its rubric hash")
    add_allow_partial_option(export)
    export.set_defaults(func=_export)

    recompute = sub.add_parser(
        "recompute", help="rebuild every aggregate from an archive alone",
        description="Validate the archive (any extra, missing or mistyped field is an "
                    "error naming its line) and print the same report `layerrag report` "
                    "prints for the run it came from.",
        epilog="examples:\n"
               "  layerrag archive recompute archives/deterministic/enterprise_v2.jsonl.gz\n"
               "  layerrag archive recompute FILE --format csv > aggregates.csv\n"
               "  layerrag archive recompute FILE --plots plots/\n"
               "  layerrag archive recompute FILE --bootstrap crossed --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    recompute.add_argument("file", type=Path, metavar="FILE", help="an archive (.jsonl.gz)")
    add_report_options(recompute, json_flag=True)
    recompute.set_defaults(func=_recompute)


def _export(args: argparse.Namespace) -> int:
    from simulator.archive.export import export_archive

    check_output_file(args.out, "--out")
    summary = export_archive(args.run_dir, args.out, args.judge)
    print(f"wrote {summary.rows} rows to {summary.path} ({summary.bytes} bytes, "
          f"sha256 {summary.sha256})")
    return partial_exit(summary.incomplete, args)


def _recompute(args: argparse.Namespace) -> int:
    chosen_format(args)
    check_output_dir(args.plots, "--plots")
    from simulator.archive.codec import load_archive
    from simulator.report.build import report_from_archive
    from simulator.report.cases import is_cases_archive

    archive = load_archive(args.file)
    if is_cases_archive(archive.rows):
        return _recompute_cases(archive, args)
    report = report_from_archive(args.file, replicates=args.replicates, seed=args.seed,
                                 bootstrap=args.bootstrap)
    return emit(report, args)


def _recompute_cases(archive: Any, args: argparse.Namespace) -> int:
    """A cases archive's report, from its rows alone (md or json)."""
    from simulator.errors import UsageError
    from simulator.report.cases import cases_report_from_archive
    from simulator.report.cases_markdown import render_cases_report
    from simulator.report.cli_support import write_utf8

    fmt = "json" if getattr(args, "json", False) else args.format
    if fmt not in ("md", "json"):
        raise UsageError(f"--format {fmt}: a cases archive reports as md or json")
    report = cases_report_from_archive(archive.rows, archive.header.fault_turns,
                                       replicates=args.replicates, seed=args.seed)
    write_utf8(report.model_dump_json(indent=2) + "\n" if fmt == "json"
               else render_cases_report(report))
    return 0
