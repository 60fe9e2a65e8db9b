"""The SQLite run store: a manifest and one row per finished record.

Records are keyed by their cell, so writing a record twice is a no-op: re-running a command
resumes instead of double counting. Writes go through WAL with small batched transactions,
so an interrupted run (Ctrl-C, kill) leaves every committed record intact and nothing
half-written.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from simulator.errors import UsageError
from simulator.runner.record import RunRecord

STORE_FILE = "runs.sqlite"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS manifest (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL, scenario TEXT NOT NULL, contract_mode TEXT NOT NULL,
    arm TEXT NOT NULL, task_row INTEGER NOT NULL,
    data TEXT NOT NULL
);
"""


class RunStore:
    """One run directory's store. Use as a context manager or call :meth:`close`."""

    def __init__(self, run_dir: Path | str, *, create: bool = True) -> None:
        self.run_dir = Path(run_dir)
        self.path = self.run_dir / STORE_FILE
        if not create and not self.path.is_file():
            raise UsageError(f"{self.run_dir}: no run store ({STORE_FILE}) here")
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    # -- manifest -----------------------------------------------------------------------
    def manifest(self) -> dict[str, Any] | None:
        row = self._db.execute("SELECT value FROM manifest WHERE name='manifest'").fetchone()
        return json.loads(row[0]) if row else None

    def write_manifest(self, manifest: dict[str, Any]) -> None:
        with self._db:
            self._db.execute("INSERT OR REPLACE INTO manifest VALUES ('manifest', ?)",
                             (json.dumps(manifest, sort_keys=True),))

    # -- records ------------------------------------------------------------------------
    def keys(self) -> set[str]:
        return {k for (k,) in self._db.execute("SELECT key FROM records")}

    def add(self, records: Iterable[RunRecord]) -> int:
        """Insert records in one transaction; already-present keys are skipped."""
        rows = [(r.key.as_str(), r.model, r.scenario, r.contract_mode, r.arm, r.task_row,
                 r.model_dump_json()) for r in records]
        with self._db:
            cur = self._db.executemany(
                "INSERT OR IGNORE INTO records VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
        return cur.rowcount

    def records(self) -> Iterator[RunRecord]:
        """Every record, in a stable order (model, scenario, mode, arm, task row)."""
        query = ("SELECT data FROM records ORDER BY model, scenario, contract_mode, arm, "
                 "task_row")
        for (data,) in self._db.execute(query):
            yield RunRecord.model_validate_json(data)

    def count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM records").fetchone()[0])
