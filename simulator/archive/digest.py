"""The digest of an archive's rows: what ``archive recompute`` checks before it trusts them.

``export`` writes the sha256 of the row lines, exactly as it writes them, into the header
(``rows_sha256``); ``recompute`` re-encodes the rows it read the same way (so a file
re-serialised with other whitespace or key order, its content untouched, still checks)
and refuses an archive whose rows were deleted, added or edited since. It catches any edit
that does not also rewrite the header: a deliberate, consistent forgery is out of its reach
(docs/archives.md).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from simulator.archive.row import ArchiveRow, row_key, row_values


def compact_json(value: Any) -> str:
    """One JSON line as archives write it: fixed separators, ASCII only."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=True)


def row_lines(rows: Iterable[ArchiveRow], columns: Sequence[str]) -> list[str]:
    """The rows' lines as an archive file holds them, in row-key order, newline included."""
    return [compact_json(row_values(r, columns)) + "\n" for r in sorted(rows, key=row_key)]


def rows_digest(rows: Iterable[ArchiveRow], columns: Sequence[str]) -> str:
    return digest_of_lines(line.encode("ascii") for line in row_lines(rows, columns))


def digest_of_lines(lines: Iterable[bytes]) -> str:
    """``sha256:`` and the hex digest of ``lines`` (each ending in a newline)."""
    digest = hashlib.sha256()
    for line in lines:
        digest.update(line)
    return f"sha256:{digest.hexdigest()}"
