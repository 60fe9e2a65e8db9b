"""Output paths checked before any work: a file where a directory belongs (or the reverse),
or a place nothing can be written, is one line naming the option and the path.

The checks create nothing: a command refused here leaves the file system as it found it.
Whatever goes wrong later while writing (a full disk, a path removed mid-run) is still an
``OSError`` naming its file, which ``layerrag`` prints as one line too (cli/main.py).
"""

from __future__ import annotations

import os
from pathlib import Path

from simulator.errors import UsageError


def check_output_dir(path: Path | None, flag: str) -> None:
    """``path`` is a directory, or one that can be made: else a :class:`UsageError`."""
    if path is None:
        return
    if path.exists():
        if not path.is_dir():
            raise UsageError(f"{flag} {path}: exists and is not a directory")
        if not os.access(path, os.W_OK | os.X_OK):
            raise UsageError(f"{flag} {path}: directory is not writable")
        return
    _check_creatable(path, flag)


def check_output_file(path: Path, flag: str) -> None:
    """``path`` is a file that can be written (or replaced): else a :class:`UsageError`."""
    if path.is_dir():
        raise UsageError(f"{flag} {path}: is a directory; name the file to write")
    if path.exists():
        if not os.access(path.parent, os.W_OK | os.X_OK):
            raise UsageError(f"{flag} {path}: its directory is not writable")
        return
    _check_creatable(path, flag)


def _check_creatable(path: Path, flag: str) -> None:
    """The nearest existing ancestor of ``path`` is a writable directory."""
    ancestor = path.absolute().parent
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise UsageError(f"{flag} {path}: {ancestor} is not a directory")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise UsageError(f"{flag} {path}: cannot be created ({ancestor} is not writable)")
