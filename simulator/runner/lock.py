"""One process per run directory: a second one is refused at once, in one line.

Two processes on one directory would each read the spend ledger, each preflight and each
compute the records the other is computing: a live budget spent twice (``--max-calls 4``
on both sent 8 requests where the ledger says 4), and one process's work discarded. The
store's transactions keep the records consistent, but only a lock held for the whole run
keeps one spender per budget.

The lock is an advisory ``flock`` on a file named for the directory's resolved path, kept
under the system's temporary directory, not in the run directory: a refused or
unreachable run must leave no file behind, and a new run's directory does not exist yet
when the lock is taken. The kernel drops the lock when its process ends, however it ends
(``kill -9`` included), so no stale lock survives a crash. Within one process the lock is
re-entrant (``run_matrix`` hands a live run to ``run_live_matrix``).
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import os
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import ParamSpec, TypeVar

from simulator.errors import UsageError

P = ParamSpec("P")
R = TypeVar("R")

_held: dict[str, list[int]] = {}
"""Lock file -> [its descriptor, how many holders in this process]."""
_guard = threading.Lock()


def lock_path(run_dir: Path | str) -> Path:
    """The lock file of ``run_dir``: one per resolved path, whether it exists or not."""
    resolved = str(Path(run_dir).expanduser().resolve())
    digest = hashlib.sha256(resolved.encode()).hexdigest()[:24]
    return Path(tempfile.gettempdir()) / "layerrag-locks" / f"{digest}.lock"


@contextmanager
def run_dir_lock(run_dir: Path | str) -> Iterator[None]:
    """Hold ``run_dir`` for this process, or raise a :class:`UsageError` naming the
    process that holds it."""
    path = lock_path(run_dir)
    key = str(path)
    with _guard:
        if key in _held:
            _held[key][1] += 1
        else:
            _held[key] = [_acquire(path, run_dir), 1]
    try:
        yield
    finally:
        with _guard:
            entry = _held[key]
            entry[1] -= 1
            if entry[1] == 0:
                del _held[key]
                os.close(entry[0])  # closing the descriptor releases the flock


def _acquire(path: Path, run_dir: Path | str) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "unknown"
        os.close(fd)
        raise UsageError(f"{run_dir} is in use by another layerrag process (pid {holder}); "
                         "one run directory has one writer (and one budget): wait for it "
                         "to end, or use another --out") from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(os.getpid()).encode(), 0)
    return fd


def holds_run_dir(func: Callable[P, R]) -> Callable[P, R]:
    """Decorate a runner taking ``(config, out, ...)``: it runs holding ``out``."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        out = kwargs["out"] if "out" in kwargs else args[1]
        with run_dir_lock(out):  # type: ignore[arg-type]
            return func(*args, **kwargs)

    return wrapper
