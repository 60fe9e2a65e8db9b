"""Judgments in the run store, in their own table beside the records.

The table is created on first write (``CREATE TABLE IF NOT EXISTS``), so a store made
before judges existed opens and runs as before, and reading one without the table finds no
judgments. A row is keyed by (record key, judge): judging again replaces that judge's rows
and leaves every other judge's alone. The rubric hash is a column, so a reader can refuse to
mix judgments made under different rubrics.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from typing import Any

from pydantic import ValidationError

from simulator.errors import UsageError
from simulator.judge.model import Judgment
from simulator.runner.store import RunStore

TABLE = "judgments"
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS {TABLE} (
    key TEXT NOT NULL, judge TEXT NOT NULL, rubric_hash TEXT NOT NULL,
    status TEXT NOT NULL, data TEXT NOT NULL,
    PRIMARY KEY (key, judge)
);
"""


def _has_table(db: sqlite3.Connection) -> bool:
    return db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?",
                      (TABLE,)).fetchone() is not None


def raw_records(store: RunStore) -> list[tuple[str, str, str, str, str, str]]:
    """Every stored record as (key, model, scenario, contract_mode, arm, JSON text),
    unparsed: a judge counts an unreadable record as unjudged instead of stopping at it,
    as RunStore.records would."""
    return list(store.connection.execute(
        "SELECT key, model, scenario, contract_mode, arm, data FROM records "
        "ORDER BY model, scenario, contract_mode, arm, task_row"))


def write_judgments(store: RunStore, judgments: Iterable[Judgment]) -> int:
    """Store judgments (replacing the same judge's earlier ones); how many were written."""
    if store.read_only:
        raise UsageError(f"{store.run_dir}: the run store is read-only; copy the run "
                         "directory somewhere writable to store judgments")
    db = store.connection
    rows = [(j.key, j.judge, j.rubric_hash, j.status, j.model_dump_json()) for j in judgments]
    with db:
        db.execute(_SCHEMA)
        db.executemany(f"INSERT OR REPLACE INTO {TABLE} VALUES (?, ?, ?, ?, ?)", rows)
    return len(rows)


def judges_in(store: RunStore) -> dict[str, set[str]]:
    """Judge name -> the rubric hashes its stored judgments carry."""
    db = store.connection
    if not _has_table(db):
        return {}
    out: dict[str, set[str]] = {}
    for judge, rubric in db.execute(f"SELECT DISTINCT judge, rubric_hash FROM {TABLE}"):
        out.setdefault(judge, set()).add(rubric)
    return out


def read_judgments(store: RunStore, judge: str) -> Iterator[Judgment]:
    """``judge``'s stored judgments, in record-key order (none in an older store)."""
    db = store.connection
    if not _has_table(db):
        return
    for (data,) in db.execute(f"SELECT data FROM {TABLE} WHERE judge=? ORDER BY key",
                              (judge,)):
        try:
            yield Judgment.model_validate_json(data)
        except ValidationError as exc:
            first: Any = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "judgment"
            raise UsageError(f"{store.path}: a stored judgment is not valid "
                             f"({where}: {first['msg']})") from None


def judgments_of(store: RunStore, judge: str) -> tuple[str, dict[str, Judgment]]:
    """``judge``'s judgments in ``store`` by record key, all under one rubric (returned
    first), or a one-line error saying which judges the run does hold."""
    found = judges_in(store)
    if judge not in found:
        held = ", ".join(sorted(found)) or "none"
        raise UsageError(f"--judge {judge}: the run holds no judgments of it (it holds: "
                         f"{held}); run layerrag judge {store.run_dir} --judge {judge} first")
    if len(found[judge]) > 1:
        raise UsageError(f"--judge {judge}: its judgments were made under "
                         f"{len(found[judge])} rubrics ({', '.join(sorted(found[judge]))}); "
                         "judge the run again to make them one")
    (rubric,) = found[judge]
    return rubric, {j.key: j for j in read_judgments(store, judge)}
