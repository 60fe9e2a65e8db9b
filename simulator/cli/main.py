"""The ``layerrag`` command. Each subcommand lives in its own module with a ``register``.

User errors (bad specs, unknown names, tampered archives) print one line and exit 2; an
interrupt exits 130 after the subcommand has left its output consistent.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from simulator import __version__
from simulator.errors import LayerragError

SUBCOMMANDS = ("corpus", "audit", "run", "report", "archive", "study", "credit", "list")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="layerrag",
        description="Test agentic RAG systems layer by layer.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"layerrag {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in SUBCOMMANDS:
        try:
            module = importlib.import_module(f"simulator.cli.{name}_cmd")
        except ModuleNotFoundError as exc:
            if exc.name == f"simulator.cli.{name}_cmd":
                continue  # not built yet
            raise
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        _load_plugins(args)
        code = args.func(args)
    except LayerragError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted: everything finished so far is saved; re-run to resume",
              file=sys.stderr)
        return 130
    return int(code or 0)


def _load_plugins(args: argparse.Namespace) -> None:
    """Installed plugins and ``--plugin`` modules, once, before any name is resolved; only
    for subcommands that resolve names (the others never pay for importing them)."""
    if hasattr(args, "plugin"):
        from simulator.plugins import load_plugins

        load_plugins(args.plugin)


if __name__ == "__main__":
    sys.exit(main())
