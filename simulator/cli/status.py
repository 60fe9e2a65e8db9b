"""A start line at once and a status line every 30 s, for commands that work for a while.

``credit`` printed nothing for 13-15 s (57 s with an agent), and ``run`` with its output
piped printed nothing until it ended: a user cannot tell a working command from a hung one.
:func:`start_line` says what is starting before the heavy imports (well within a second);
:func:`heartbeat`, off a terminal (where no progress bar draws), prints a status line every
:data:`STATUS_EVERY_S` seconds until the work ends. Both write to stderr, so stdout (the
report, the JSON) stays exactly what it was; ``--no-progress`` silences both.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

STATUS_EVERY_S = 30.0
"""Seconds between status lines (the live runner's own status lines use the same)."""


def start_line(command: str, what: str, *, enabled: bool = True) -> None:
    """``layerrag COMMAND: WHAT`` on stderr, flushed, unless ``enabled`` is False."""
    if enabled:
        print(f"layerrag {command}: {what}", file=sys.stderr, flush=True)


@contextmanager
def heartbeat(command: str, *, enabled: bool = True, every: float = STATUS_EVERY_S,
              terminal: bool | None = None) -> Iterator[None]:
    """While the block runs, ``layerrag COMMAND: still working, N s`` every ``every`` s.

    Only off a terminal (``terminal`` defaults to whether stderr is one): on a terminal the
    progress bar shows the same. The thread is a daemon and stops when the block ends."""
    on_terminal = sys.stderr.isatty() if terminal is None else terminal
    if not enabled or on_terminal:
        yield
        return
    started = time.monotonic()
    done = threading.Event()

    def beat() -> None:
        while not done.wait(every):
            elapsed = time.monotonic() - started
            print(f"layerrag {command}: still working, {elapsed:.0f} s elapsed",
                  file=sys.stderr, flush=True)

    thread = threading.Thread(target=beat, name=f"layerrag-{command}-status", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join(timeout=1)


def describe(args: argparse.Namespace) -> tuple[str, str] | None:
    """The command and the start line of ``credit``, from its parsed arguments (None for
    the others: quick ones, and ``run`` and ``study focused``, which print their own)."""
    command = getattr(args, "command", None)
    if command == "credit":
        source = (f"reading {args.run}" if getattr(args, "run", None) is not None
                  else "running both arms, then the bootstrap")
        return "credit", f"crediting {args.policy} against {args.baseline}: {source}"
    return None


def is_deterministic(args: argparse.Namespace) -> bool:
    """Whether the command runs only the deterministic reader (live runs print their own
    status lines every 30 s off a terminal)."""
    model = getattr(args, "model", None)
    models = [model] if isinstance(model, str) else list(model or ["deterministic"])
    return all(m == "deterministic" for m in models)
