"""What ``layerrag report`` and ``layerrag archive recompute`` share: options and output.

Both commands print the same rendering of the same :class:`Report`; keeping their options
and output in one place keeps them from drifting apart.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from simulator.errors import UsageError
from simulator.report.render import FORMATS, render, renderers
from simulator.runner.completeness import EXIT_INCOMPLETE
from simulator.stats.bootstrap import BOOTSTRAP_KINDS

if TYPE_CHECKING:
    from simulator.report.model import Report


def add_bootstrap_option(parser: argparse.ArgumentParser) -> None:
    """``--bootstrap {nested,crossed}``: how the paired intervals resample."""
    parser.add_argument("--bootstrap", choices=BOOTSTRAP_KINDS, default="nested",
                        help="nested: policy units within each model unit, the paper's "
                             "(default); crossed: model and policy units independently, when "
                             "models answer the same policy units (docs/intervals.md)")


def add_full_option(parser: argparse.ArgumentParser) -> None:
    """``--full``: every table, not the concise default (Markdown)."""
    parser.add_argument("--full", action="store_true",
                        help="print every table (scenario x mode detail, paired effects, "
                             "failure layers, averages, gains, prompt hashes); the default "
                             "Markdown is one table per arm and one-line notes (csv, latex "
                             "and json always hold every table)")


def add_report_options(parser: argparse.ArgumentParser, *, json_flag: bool = False) -> None:
    """``--format``, ``--full``, ``--plots``, ``--replicates``, ``--seed``, ``--bootstrap``
    (and ``--json``)."""
    parser.add_argument("--format", default="md", metavar="FMT",
                        help=f"output format: {', '.join(FORMATS)} (default md)")
    if json_flag:
        parser.add_argument("--json", action="store_true", help="same as --format json")
    add_full_option(parser)
    parser.add_argument("--plots", type=Path, default=None, metavar="DIR",
                        help="also write PNG plots into DIR")
    parser.add_argument("--replicates", type=int, default=2000,
                        help="bootstrap replicates (default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    add_bootstrap_option(parser)
    add_allow_partial_option(parser)


def add_allow_partial_option(parser: argparse.ArgumentParser) -> None:
    """``--allow-partial``: a run missing records exits 0 (still flagged), not 5."""
    parser.add_argument("--allow-partial", action="store_true",
                        help="a run or archive missing records (killed, stopped by its "
                             "budget) is still flagged 'incomplete: N of M records', but "
                             f"exits 0 instead of {EXIT_INCOMPLETE}")


def partial_exit(incomplete: str | None, args: argparse.Namespace) -> int:
    """Say ``incomplete: ...`` on stderr; the exit code: 5 unless ``--allow-partial``."""
    if incomplete is None:
        return 0
    print(f"{'note' if args.allow_partial else 'error'}: {incomplete}", file=sys.stderr)
    return 0 if args.allow_partial else EXIT_INCOMPLETE


def chosen_format(args: argparse.Namespace) -> str:
    """The requested format, checked before any work (unknown names get a suggestion)."""
    fmt: str = "json" if getattr(args, "json", False) else args.format
    renderers.get(fmt)
    if args.replicates < 1:
        raise UsageError(f"--replicates must be at least 1, got {args.replicates}")
    if args.seed < 0:
        raise UsageError(f"--seed must be 0 or more (a bootstrap seed), got {args.seed}")
    return fmt


def emit(report: Report, args: argparse.Namespace) -> int:
    """Print the rendered report on stdout; plots go to files, their paths to stderr."""
    text = render(report, chosen_format(args), full=getattr(args, "full", False))
    if args.plots is not None:
        from simulator.report.plots import write_plots  # matplotlib only when asked

        for path in write_plots(report, args.plots):
            print(f"wrote {path}", file=sys.stderr)
    write_utf8(text)
    return partial_exit(report.incomplete, args)


def write_utf8(text: str) -> None:
    """UTF-8 on stdout whatever the locale, so ``> REPORT.md`` gives the same bytes anywhere."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:
        sys.stdout.write(text)
        return
    sys.stdout.flush()
    buffer.write(text.encode("utf-8"))
    buffer.flush()
