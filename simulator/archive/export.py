"""Turn a run store into an archive: allowlisted rows plus a header from the run manifest.

``layerrag report RUN_DIR`` and ``layerrag archive export`` both go through
:func:`archive_from_store`, so a report printed from a run and a recompute of its exported
archive start from identical rows.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from simulator.agent.pipelines import pipeline_of
from simulator.archive.codec import Archive, describe_error, write_archive
from simulator.archive.digest import rows_digest
from simulator.archive.invariants import TaskAgreement, header_problem, row_problem
from simulator.archive.row import (
    ARCHIVE_VERSION,
    REQUIRED_FIELDS,
    ArchiveHeader,
    ArchiveRow,
    JudgeProvenance,
    columns_in_use,
    row_key,
)
from simulator.errors import ArchiveError, UsageError
from simulator.judge.model import Judgment
from simulator.runner.completeness import incompleteness
from simulator.runner.record import RunRecord
from simulator.runner.store import RunStore
from simulator.vocabulary import DEFAULT_AGENT

_REQUIRED_MANIFEST_KEYS = ("run_id", "corpus_hash", "created", "versions")
_GZIP_MAGIC = b"\x1f\x8b"


def row_from_record(record: RunRecord, judgment: Judgment | None = None) -> ArchiveRow:
    """Copy the allowlisted fields of one record; nothing else leaves the run."""
    try:
        return ArchiveRow.from_record(record, judgment)
    except ValidationError as exc:
        raise ArchiveError(f"record {record.key.as_str()}: {describe_error(exc)}") from None


def rows_from_records(records: Iterable[RunRecord],
                      judgments: Mapping[str, Judgment] | None = None) -> list[ArchiveRow]:
    """Allowlisted rows (with their judgments' scores when given), sorted by row key."""
    found = judgments or {}
    return sorted((row_from_record(r, found.get(r.key.as_str())) for r in records),
                  key=row_key)


def agent_of(manifest: Mapping[str, Any] | None) -> str:
    """The agent a run was made with, from its manifest (runs made before the option
    existed are the pipeline's)."""
    config = (manifest or {}).get("config") or {}
    return str(config.get("agent", DEFAULT_AGENT))


def _fault_turns(manifest: Mapping[str, Any]) -> str | None:
    """A cases run's fault schedule (its default when the config names none)."""
    config = manifest.get("config") or {}
    if config.get("suite") != "cases":
        return None
    from simulator.cases.schedule import DEFAULT_SCHEDULE

    return str(config.get("fault_turns") or DEFAULT_SCHEDULE)


def header_from_manifest(manifest: Mapping[str, Any],
                         fields: Sequence[str] = REQUIRED_FIELDS,
                         judge: JudgeProvenance | None = None) -> ArchiveHeader:
    """The archive header: provenance copied from the run manifest, and the columns the
    rows hold (the required ones unless an optional one is in use)."""
    missing = [k for k in _REQUIRED_MANIFEST_KEYS if k not in manifest]
    if missing:
        raise ArchiveError(f"run manifest: missing {', '.join(map(repr, missing))}")
    versions = manifest["versions"]
    templates = manifest.get("prompt_template_hashes") or {}
    if not isinstance(versions, Mapping) or not isinstance(templates, Mapping):
        raise ArchiveError("run manifest: 'versions' and 'prompt_template_hashes' must be "
                           "objects of name -> string")
    raw = {
        "archive_version": ARCHIVE_VERSION,
        "run_id": manifest["run_id"],
        "created": str(manifest["created"]),
        "corpus_hash": manifest["corpus_hash"],
        "prompt_template_hashes": dict(sorted(templates.items())),
        "versions": dict(sorted(versions.items())),
        "fields": list(fields),
        "pipeline": pipeline_of(manifest),
        "agent": agent_of(manifest),
        "structured_output": dict(sorted((manifest.get("structured_output") or {}).items())),
        "expected_records": manifest.get("expected_records"),
        "judge": judge.model_dump() if judge is not None else None,
        "fault_turns": _fault_turns(manifest),
    }
    try:
        return ArchiveHeader.model_validate(raw)
    except ValidationError as exc:
        raise ArchiveError(f"run manifest: {describe_error(exc)}") from None


def archive_from_records(manifest: Mapping[str, Any], records: Iterable[RunRecord],
                         judged: tuple[JudgeProvenance, Mapping[str, Judgment]] | None = None
                         ) -> Archive:
    """An in-memory archive; every record must belong to the manifest's run. ``judged``:
    a judge and its judgments by record key, for the ``judge_*`` columns."""
    rows = rows_from_records(records, judged[1] if judged else None)
    header = header_from_manifest(manifest, columns_in_use(rows),
                                  judged[0] if judged else None)
    tasks = TaskAgreement()
    for row in rows:
        if row.run_id != header.run_id:
            raise ArchiveError(f"record of run {row.run_id!r} in run {header.run_id!r}: a run "
                               "store must hold one run")
        where = (f"record {row.model}|{row.scenario}|{row.contract_mode}|{row.arm}|"
                 f"task_row {row.task_row}")
        problem = header_problem(header, row) or row_problem(row) or tasks.problem(row, where)
        if problem:
            raise ArchiveError(f"{where}: {problem}")
    header = header.model_copy(update={"rows_sha256": rows_digest(rows, header.fields)})
    return Archive(header=header, rows=tuple(rows))


def archive_from_store(run_dir: Path | str, judge: str | None = None) -> Archive:
    """Read a run directory's store into an in-memory archive (no file written); with
    ``judge``, that judge's stored judgments become the ``judge_*`` columns."""
    with RunStore(run_dir, create=False) as store:
        manifest = store.manifest()
        if manifest is None:
            raise UsageError(f"{run_dir}: the run store has no manifest")
        judged = stored_judge(store, judge) if judge is not None else None
        archive = archive_from_records(manifest, store.records(), judged)
    if not archive.rows:
        raise UsageError(f"{run_dir}: the run holds no records yet; re-run it to resume")
    return archive


def stored_judge(store: RunStore, judge: str
                 ) -> tuple[JudgeProvenance, dict[str, Judgment]]:
    """``judge``'s judgments in ``store``, all under one rubric, or a one-line error."""
    from simulator.judge.store import judgments_of

    rubric, judgments = judgments_of(store, judge)
    return JudgeProvenance(name=judge, rubric_hash=rubric), judgments


class ExportSummary(BaseModel):
    """What an export wrote, for the CLI to print."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    path: str
    rows: int
    bytes: int
    sha256: str
    incomplete: str | None = None
    """``incomplete: N of M records; ...`` when the run is missing records."""


def export_archive(run_dir: Path | str, out: Path | str, judge: str | None = None
                   ) -> ExportSummary:
    """Export a run directory to a privacy-safe archive file.

    An existing archive at ``out`` is replaced; any other file there is refused, so a
    mistyped ``--out`` cannot overwrite a run store, a report or a spec with an archive.
    """
    target = Path(out)
    if target.is_file() and target.read_bytes()[:2] != _GZIP_MAGIC:
        raise UsageError(f"{target}: exists and is not an archive; refusing to overwrite it")
    archive = archive_from_store(run_dir, judge)
    data = write_archive(archive, out)
    expected = archive.header.expected_records
    return ExportSummary(path=str(out), rows=len(archive.rows), bytes=len(data),
                         sha256=hashlib.sha256(data).hexdigest(),
                         incomplete=incompleteness(expected, archive.rows) if expected else None)
