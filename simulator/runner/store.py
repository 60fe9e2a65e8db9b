"""The SQLite run store: a manifest and one row per finished record.

Records are keyed by their cell, so writing a record twice is a no-op: re-running a command
resumes instead of double counting. Writes go through WAL with small batched transactions,
so an interrupted run (Ctrl-C, kill) leaves every committed record intact and nothing
half-written.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Collection, Iterable, Iterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from simulator.errors import UsageError
from simulator.runner.record import RunRecord

STORE_FILE = "runs.sqlite"
_BUSY_SECONDS = 30.0
"""How long a store waits for another process holding its lock."""
_SCHEMA = """
CREATE TABLE IF NOT EXISTS manifest (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL, scenario TEXT NOT NULL, contract_mode TEXT NOT NULL,
    arm TEXT NOT NULL, task_row INTEGER NOT NULL,
    data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS trajectories (key TEXT PRIMARY KEY, data TEXT NOT NULL);
"""
NO_TRAJECTORY = "no trajectory recorded"
"""What a reader says of a record stored without one (a store made before trajectories,
or a record written by a tool that gave none)."""


def _writable(run_dir: Path, path: Path) -> bool:
    """Whether this process may write the store: its directory (WAL needs its -wal and
    -shm files beside it) and, when it exists, the file itself."""
    return (os.access(run_dir, os.W_OK | os.X_OK)
            and (not path.exists() or os.access(path, os.W_OK)))


def _open_read_only(path: Path) -> sqlite3.Connection:
    """Open a store this process may not write (a read-only directory, an archive copy).

    With no write-ahead log beside it the file is complete (the last writer's close
    checkpointed it), so it opens ``immutable``: SQLite then needs no -shm file, which a
    read-only directory could not hold. With a -wal left behind (a run killed while
    writing) the records in it count, so it opens ``mode=ro``, which reads the log.
    """
    wal = path.with_name(path.name + "-wal")
    mode = "mode=ro" if wal.exists() else "immutable=1"
    uri = f"{path.resolve().as_uri()}?{mode}"
    try:
        db = sqlite3.connect(uri, uri=True, timeout=_BUSY_SECONDS)
        db.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError as exc:
        if mode == "mode=ro":
            raise sqlite3.OperationalError(
                f"{exc}; the directory is read-only and holds an unfinished write-ahead "
                "log: copy the run directory somewhere writable and read it there") from None
        raise
    return db


class RunStore:
    """One run directory's store. Use as a context manager or call :meth:`close`."""

    def __init__(self, run_dir: Path | str, *, create: bool = True) -> None:
        """Open the store of ``run_dir``; with ``create``, make the directory and store.

        A file that is not a run store (garbage, another program's SQLite database, a
        directory where the store should be) is refused with a :class:`UsageError` and
        left exactly as it was.
        """
        self.run_dir = Path(run_dir)
        self.path = self.run_dir / STORE_FILE
        self._run_id: str | None = None
        if self.run_dir.exists() and not self.run_dir.is_dir():
            raise UsageError(f"{self.run_dir}: not a directory (a run directory holds "
                             f"{STORE_FILE})")
        if self.path.exists() and not self.path.is_file():
            raise UsageError(f"{self.path}: not a file, so not a run store")
        if not create and not self.path.is_file():
            raise UsageError(f"{self.run_dir}: no run store ({STORE_FILE}) here")
        fresh = not self.path.exists()
        self.read_only = not create and not _writable(self.run_dir, self.path)
        if not self.read_only:
            self.run_dir.mkdir(parents=True, exist_ok=True)
        try:
            self._db = (_open_read_only(self.path) if self.read_only else
                        sqlite3.connect(self.path, timeout=_BUSY_SECONDS))
        except sqlite3.Error as exc:
            raise UsageError(f"{self.path}: cannot open the run store ({exc})") from None
        try:
            if self.read_only:
                self._check_is_run_store(create=False)
                return
            self._prepare(create=create, check=not fresh)
        except sqlite3.Error as exc:
            self._db.close()
            raise UsageError(f"{self.path}: not a layerrag run store ({exc})") from None
        except UsageError:
            self._db.close()
            raise

    def _prepare(self, *, create: bool, check: bool) -> None:
        """Check an existing file, switch to WAL and (with ``create``) make the tables.

        Runs started together on one fresh directory prepare its store at the same
        moment. The tables are made in one transaction, so no one sees half a schema; and
        SQLite answers "locked" at once, without waiting, to some of these steps (the
        switch to WAL, a read that must become a write), so they are retried until
        ``_BUSY_SECONDS`` have passed.
        """
        deadline = time.monotonic() + _BUSY_SECONDS
        while True:
            try:
                if check:
                    self._check_is_run_store(create)
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
                if create:
                    self._db.executescript(f"BEGIN IMMEDIATE;{_SCHEMA}COMMIT;")
                return
            except sqlite3.OperationalError as exc:
                if self._db.in_transaction:
                    self._db.rollback()
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
                time.sleep(0.005)

    def _check_is_run_store(self, create: bool) -> None:
        """Refuse an existing file that is not ours, before anything is written to it.

        An empty database is a store another run is creating this instant: one that is
        being created may use it, one that only reads finds no run in it.
        """
        tables = {name for (name,) in self._db.execute(
            "SELECT name FROM sqlite_master WHERE type='table'")}
        if tables and not {"manifest", "records"} <= tables:
            raise UsageError(f"{self.path}: an SQLite database, but not a layerrag run store "
                             f"(tables: {', '.join(sorted(tables))})")
        if not tables and not create:
            raise UsageError(f"{self.path}: an empty database, with no run in it")

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    @property
    def connection(self) -> sqlite3.Connection:
        """The open connection, for modules keeping their own tables beside the records
        (simulator/judge/store.py)."""
        return self._db

    # -- manifest -----------------------------------------------------------------------
    def manifest(self) -> dict[str, Any] | None:
        row = self._db.execute("SELECT value FROM manifest WHERE name='manifest'").fetchone()
        return self._decode_manifest(row[0]) if row else None

    def _decode_manifest(self, text: str) -> dict[str, Any]:
        try:
            manifest = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{self.path}: the manifest is not valid JSON ({exc.msg})") from None
        if not isinstance(manifest, dict) or not isinstance(manifest.get("run_id"), str):
            raise UsageError(f"{self.path}: the manifest is not an object with a run_id")
        return manifest

    def write_manifest(self, manifest: dict[str, Any]) -> None:
        """Write (or replace) the manifest unconditionally: for tools and tests. A run
        claims its store with :meth:`claim`."""
        with self._db:
            self._db.execute("INSERT OR REPLACE INTO manifest VALUES ('manifest', ?)",
                             (json.dumps(manifest, sort_keys=True),))

    def claim(self, manifest: dict[str, Any]) -> dict[str, Any]:
        """Make ``manifest`` this store's, unless it already has one; return the one it has.

        The read and the write are one transaction that takes the write lock first
        (``BEGIN IMMEDIATE``), so of two runs started together on one fresh directory
        exactly one writes its manifest and the other reads it back: a store can never
        hold two runs. From then on :meth:`add` refuses records of any other run.
        """
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            row = db.execute("SELECT value FROM manifest WHERE name='manifest'").fetchone()
            if row is None:
                db.execute("INSERT INTO manifest VALUES ('manifest', ?)",
                           (json.dumps(manifest, sort_keys=True),))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        held = manifest if row is None else self._decode_manifest(row[0])
        self._run_id = held["run_id"]
        return held

    # -- records ------------------------------------------------------------------------
    def keys(self) -> set[str]:
        return {k for (k,) in self._db.execute("SELECT key FROM records")}

    def add(self, records: Iterable[RunRecord], *, replacing: Collection[str] = ()) -> int:
        """Insert records in one transaction; already-present keys are skipped, except
        those in ``replacing`` (records being retried), whose stored row is replaced.

        Each record's trajectory (``RunRecord.trajectory``, kept out of the record's own
        JSON) goes to the ``trajectories`` table in the same transaction, so a record is
        never stored without the trajectory it was made with, nor the reverse."""
        rows, paths = [], []
        for r in self._own(records):
            key = r.key.as_str()
            rows.append((key, r.model, r.scenario, r.contract_mode, r.arm, r.task_row,
                         r.model_dump_json()))
            if r.trajectory is not None:
                paths.append((key, json.dumps(r.trajectory, separators=(",", ":"))))
        with self._db:
            if replacing:
                gone = [(row[0],) for row in rows if row[0] in replacing]
                self._db.executemany("DELETE FROM records WHERE key=?", gone)
                self._db.executemany("DELETE FROM trajectories WHERE key=?", gone)
            cur = self._db.executemany(
                "INSERT OR IGNORE INTO records VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
            written = cur.rowcount
            if paths:
                self._db.executemany("INSERT OR IGNORE INTO trajectories VALUES (?, ?)",
                                     paths)
        return written

    @property
    def has_trajectories(self) -> bool:
        """Whether this store has a trajectories table (stores made before it do not)."""
        return self._db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND "
                                "name='trajectories'").fetchone() is not None

    def trajectories(self, keys: Iterable[str]) -> dict[str, str]:
        """The stored trajectory JSON of each of ``keys`` that has one (the others are
        :data:`NO_TRAJECTORY`)."""
        wanted = list(keys)
        if not wanted or not self.has_trajectories:
            return {}
        found: dict[str, str] = {}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            marks = ",".join("?" * len(chunk))
            found.update(self._db.execute(
                f"SELECT key, data FROM trajectories WHERE key IN ({marks})", chunk))
        return found

    def all_trajectories(self) -> dict[str, str]:
        """Every stored trajectory's JSON, by record key."""
        if not self.has_trajectories:
            return {}
        return dict(self._db.execute("SELECT key, data FROM trajectories"))

    def provider_error_keys(self) -> set[str]:
        """Records to retry: those stored as provider errors, and every record that sent
        the same prompt to the same model (its pair, e.g. strict and repair), so a retry
        gives the pair one shared outcome again."""
        rows = self._db.execute(
            "SELECT key, model, json_extract(data, '$.prompt_hash'), "
            "json_extract(data, '$.provider_error') FROM records").fetchall()
        failed = {(model, prompt) for _, model, prompt, error in rows if error}
        return {key for key, model, prompt, error in rows
                if error or (prompt is not None and (model, prompt) in failed)}

    def provider_error_count(self) -> int:
        """How many stored records are provider errors."""
        return self.errors("provider_error")[0]

    def errors(self, flag: str) -> tuple[int, str | None]:
        """How many stored records have the outcome ``flag`` (``agent_error``,
        ``provider_error``), and the first one's reason, in record order."""
        if flag not in ("agent_error", "provider_error", "reader_error"):
            raise ValueError(f"not an error outcome: {flag!r}")
        where = f"json_extract(data, '$.{flag}')"
        count, = self._db.execute(f"SELECT COUNT(*) FROM records WHERE {where}").fetchone()
        first = self._db.execute(
            f"SELECT json_extract(data, '$.reason') FROM records WHERE {where} "
            "ORDER BY model, scenario, contract_mode, arm, task_row LIMIT 1").fetchone()
        return int(count), (first[0] if first else None)

    def records(self) -> Iterator[RunRecord]:
        """Every record, in a stable order (model, scenario, mode, arm, task row)."""
        query = ("SELECT data FROM records ORDER BY model, scenario, contract_mode, arm, "
                 "task_row")
        for (data,) in self._db.execute(query):
            yield self.parsed(data)

    def parsed(self, data: str) -> RunRecord:
        """One stored record's JSON as a record; a row that is not one is a one-line
        :class:`UsageError` naming the store and the field."""
        try:
            return RunRecord.model_validate_json(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "record"
            raise UsageError(f"{self.path}: a stored record is not a valid record "
                             f"({where}: {first['msg']})") from None

    def _own(self, records: Iterable[RunRecord]) -> Iterator[RunRecord]:
        """``records``, each checked to belong to the run that claimed this store."""
        for record in records:
            if self._run_id is not None and record.run_id != self._run_id:
                raise UsageError(f"{self.run_dir} holds run {self._run_id}: a record of run "
                                 f"{record.run_id} cannot be added to it")
            yield record

    def count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM records").fetchone()[0])
