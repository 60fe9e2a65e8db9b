"""``--plugin MODULE``: the option of every subcommand that resolves component names.

``main`` loads the installed plugins' entry points and these modules once, after parsing
and before the subcommand runs (simulator/plugins.py).
"""

from __future__ import annotations

import argparse


def add_plugin_option(parser: argparse.ArgumentParser) -> None:
    """``--plugin MODULE`` (repeatable)."""
    parser.add_argument(
        "--plugin", action="append", default=[], metavar="MODULE",
        help="import MODULE first, so the faults, policies, scenarios, readers or agents it "
             "registers can be named (repeatable; installed plugins load through their "
             "entry points; docs/plugins.md)")
