"""The ``layerrag`` command. Each subcommand lives in its own module with a ``register``.

User errors (bad specs, unknown names, tampered archives, a path that cannot be written)
print one line and exit 2; an interrupt exits 130 after the subcommand has left its output
consistent; output piped into a reader that stops early (``| head``) ends quietly.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Sequence

from simulator import __version__
from simulator.errors import LayerragError

SUBCOMMANDS = ("corpus", "audit", "run", "report", "archive", "study", "credit", "list", "judge",
               "show", "view")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole parser, or (``only``) the parser of one subcommand: a command imports
    only its own module before it runs, so it starts without paying for the others'."""
    parser = argparse.ArgumentParser(
        prog="layerrag",
        description="Test agentic RAG systems layer by layer.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"layerrag {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in SUBCOMMANDS if only is None else (only,):
        try:
            module = importlib.import_module(f"simulator.cli.{name}_cmd")
        except ModuleNotFoundError as exc:
            if exc.name == f"simulator.cli.{name}_cmd":
                continue  # not built yet
            raise
        module.register(subparsers)
    return parser


EXIT_USAGE = 2
"""Bad input: a one-line error on stderr, and nothing already written lost or changed."""
EXIT_BROKEN_PIPE = 128 + 13
"""The reader of stdout went away (``| head``): what a process killed by SIGPIPE reports."""


def invoked_subcommand(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names first (None for ``--help``, ``--version``, a typo)."""
    first = next((token for token in argv if not token.startswith("-")), None)
    return first if first in SUBCOMMANDS and argv[0] == first else None


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(only=invoked_subcommand(argv))
    try:
        args = parser.parse_args(argv)  # an option's own check may raise a one-line error
        _load_plugins(args)
        with _status(args):
            code = args.func(args)
        sys.stdout.flush()  # inside the try: a closed pipe fails here, not at exit
    except LayerragError as exc:
        return _error(str(exc))
    except OSError as exc:
        if isinstance(exc, BrokenPipeError) and exc.filename is None:
            return _quiet_broken_pipe()
        return _error(describe_os_error(exc))
    except KeyboardInterrupt:
        print("interrupted: everything finished so far is saved; re-run to resume",
              file=sys.stderr)
        return 130
    return int(code or 0)


def _error(message: str) -> int:
    from simulator.live.secrets import scrub  # a library's text may echo a key

    print(f"error: {scrub(message)}", file=sys.stderr)
    return EXIT_USAGE


def describe_os_error(exc: OSError) -> str:
    """One line naming the file the system refused, and why (``cannot write x: ...``)."""
    why = exc.strerror or str(exc)
    if exc.filename is None:
        return why
    target = f"{exc.filename} -> {exc.filename2}" if exc.filename2 else str(exc.filename)
    return f"{target}: {why}"


def _quiet_broken_pipe() -> int:
    """``layerrag ... | head``: stop without a word. Point stdout at /dev/null so the
    interpreter's final flush of what is still buffered cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout without a file descriptor (captured)
        pass
    finally:
        os.close(devnull)
    return EXIT_BROKEN_PIPE


def _status(args: argparse.Namespace) -> contextlib.AbstractContextManager[None]:
    """``credit``, ``study focused`` and ``run``: off a terminal, a status line every 30 s
    (simulator/cli/status.py); their start lines come once their input is checked, so a
    refusal stays one line (cli/live_run.py, cli/run_cmd.py)."""
    from simulator.cli.status import describe, heartbeat, is_deterministic

    quiet = getattr(args, "no_progress", False)
    long = (describe(args) is not None or getattr(args, "command", None) == "run"
            or getattr(args, "study", None) == "focused")
    return heartbeat(str(getattr(args, "command", "")),
                     enabled=long and not quiet and is_deterministic(args))


def _load_plugins(args: argparse.Namespace) -> None:
    """Installed plugins and ``--plugin`` modules, once, before any name is resolved; only
    for subcommands that resolve names (the others never pay for importing them)."""
    if hasattr(args, "plugin"):
        from simulator.plugins import load_plugins

        load_plugins(args.plugin)


if __name__ == "__main__":
    sys.exit(main())
