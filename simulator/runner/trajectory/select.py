"""Pick records out of a run store with their trajectories, and find each one's clean twin.

``layerrag show`` must answer in well under a second on a full 4,320-record run, so the
filters the store has columns for (model, scenario, mode, arm) and the two it does not
(strict success, task id) are applied in SQL before any record is parsed, and only the
trajectories of the records shown are read. A filter value the run does not hold is a
one-line error naming the values it does hold, not an empty answer that looks like "no
failures".
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from simulator.errors import UsageError
from simulator.runner.record import RecordKey, RunRecord
from simulator.runner.store import RunStore
from simulator.runner.trajectory.model import TRAJECTORY_VERSION, Trajectory
from simulator.vocabulary import CLEAN_SCENARIO

_COLUMNS = {"model": "model", "scenario": "scenario", "mode": "contract_mode", "arm": "arm"}
"""Filter name -> the records table's column."""


@dataclass(frozen=True)
class RecordFilter:
    """Which records to show. None leaves a field unconstrained."""

    model: str | None = None
    scenario: str | None = None
    mode: str | None = None
    arm: str | None = None
    task: str | None = None
    """A task id (``task_79aabbe72f47``), or its row number in the corpus."""
    failed: bool = False
    """Only records that are not strictly successful (S false)."""
    limit: int | None = 10
    """At most this many records (the first in the store's stable order); None for all."""


@dataclass(frozen=True)
class Shown:
    """One selected record, its trajectory (None when the store kept none) and, when asked
    for, its clean twin with the twin's trajectory."""

    record: RunRecord
    trajectory: Trajectory | None
    twin: RunRecord | None = None
    twin_trajectory: Trajectory | None = None


@dataclass(frozen=True)
class Selection:
    matched: int
    """How many records the filter matches (``shown`` may hold fewer: the limit)."""
    shown: list[Shown]
    has_trajectories: bool
    """False for a store written before trajectories were kept."""


def twin_key(record: RunRecord) -> RecordKey | None:
    """The key of ``record``'s clean twin (same model, agent, task, mode and arm, in the
    clean scenario), or None for a record that is itself clean."""
    if record.scenario == CLEAN_SCENARIO:
        return None
    return record.key.model_copy(update={"scenario": CLEAN_SCENARIO})


def select(store: RunStore, wanted: RecordFilter, *, twins: bool = False) -> Selection:
    """The records of ``store`` that ``wanted`` matches, in the store's stable order."""
    db = store.connection
    where, params = [], []
    for name, column in _COLUMNS.items():
        value = getattr(wanted, name)
        if value is None:
            continue
        _check_value(db, column, f"--{name}", value)
        where.append(f"{column} = ?")
        params.append(value)
    if wanted.task is not None:
        where.append("(json_extract(data, '$.task_id') = ? OR task_row = ?)")
        params += [wanted.task, int(wanted.task) if wanted.task.isdigit() else -1]
    if wanted.failed:
        # a case turn fails when it is not safe (a clarify or abstain turn has no S to pass)
        where.append("(CASE WHEN json_extract(data, '$.case') IS NULL "
                     "THEN json_extract(data, '$.S') = 0 "
                     "ELSE json_extract(data, '$.case.score.safe') = 0 END)")
    clause = f" WHERE {' AND '.join(where)}" if where else ""
    matched = int(db.execute(f"SELECT COUNT(*) FROM records{clause}", params).fetchone()[0])
    if wanted.task is not None and matched == 0 and not _task_exists(db, wanted.task):
        raise UsageError(f"--task {wanted.task}: no record of this run has that task id or "
                         "row (task ids look like task_79aabbe72f47)")
    limit = "" if wanted.limit is None else f" LIMIT {int(wanted.limit)}"
    rows = db.execute(f"SELECT key, data FROM records{clause} ORDER BY model, scenario, "
                      f"contract_mode, arm, task_row{limit}", params).fetchall()
    records = {key: store.parsed(data) for key, data in rows}
    twin_keys: dict[str, str] = {}
    if twins:
        for key, record in records.items():
            clean = twin_key(record)
            if clean is not None:
                twin_keys[key] = clean.as_str()
        found = dict(db.execute(
            f"SELECT key, data FROM records WHERE key IN ({','.join('?' * len(twin_keys))})",
            list(twin_keys.values())).fetchall()) if twin_keys else {}
        twin_records = {k: store.parsed(d) for k, d in found.items()}
    else:
        twin_records = {}
    paths = store.trajectories([*records, *twin_records])
    shown = []
    for key, record in records.items():
        twin = twin_records.get(twin_keys.get(key, ""))
        shown.append(Shown(
            record=record, trajectory=parse_trajectory(store, paths.get(key)), twin=twin,
            twin_trajectory=(parse_trajectory(store, paths.get(twin.key.as_str()))
                             if twin is not None else None)))
    return Selection(matched=matched, shown=shown, has_trajectories=store.has_trajectories)


def _check_value(db: Any, column: str, flag: str, value: str) -> None:
    held = [v for (v,) in db.execute(f"SELECT DISTINCT {column} FROM records ORDER BY 1")]
    if value not in held:
        raise UsageError(f"{flag} {value}: not in this run (it has {', '.join(held) or 'none'})")


def _task_exists(db: Any, task: str) -> bool:
    return db.execute("SELECT 1 FROM records WHERE json_extract(data, '$.task_id') = ? OR "
                      "task_row = ? LIMIT 1",
                      (task, int(task) if task.isdigit() else -1)).fetchone() is not None


def parse_trajectory(store: RunStore, data: str | None) -> Trajectory | None:
    """A stored trajectory's JSON as the model, None for none; one line if unreadable."""
    if data is None:
        return None
    try:
        raw = json.loads(data)
        if raw.get("version") != TRAJECTORY_VERSION:
            raise UsageError(f"{store.path}: a trajectory of version {raw.get('version')!r} "
                             f"(this layerrag reads version {TRAJECTORY_VERSION})")
        return Trajectory.model_validate(raw)
    except (ValueError, ValidationError, AttributeError) as exc:
        raise UsageError(f"{store.path}: a stored trajectory is not valid ({exc})"
                         .splitlines()[0]) from None


def as_json(selection: Selection, names: Sequence[str] = ()) -> dict[str, Any]:
    """``selection`` as ``layerrag show --json`` prints it."""
    def one(record: RunRecord | None, path: Trajectory | None) -> dict[str, Any] | None:
        if record is None:
            return None
        return {"key": record.key.as_str(), "record": record.model_dump(mode="json"),
                "trajectory": path.model_dump(mode="json") if path is not None else None}

    return {"matched": selection.matched, "shown": len(selection.shown),
            "records": [{**(one(s.record, s.trajectory) or {}),
                         "twin": one(s.twin, s.twin_trajectory)} for s in selection.shown]}
