"""Read and write the archive file format: gzip JSON lines, header first, one row a line.

Writing is deterministic (gzip mtime 0, no file name in the gzip header, rows sorted, fixed
key order, compact separators), so the same run always exports byte-identical bytes.
Reading validates the header and every row; the first problem is raised as a one-line
:class:`ArchiveError` naming the line and the field.
"""

from __future__ import annotations

import gzip
import json
import os
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from simulator.archive.digest import compact_json, row_lines, rows_digest
from simulator.archive.invariants import TaskAgreement, header_problem, row_problem
from simulator.archive.row import (
    ARCHIVE_FIELDS,
    ARCHIVE_VERSION,
    OPTIONAL_FIELDS,
    ArchiveHeader,
    ArchiveRow,
    row_key,
)
from simulator.errors import ArchiveError
from simulator.runner.completeness import unexpected_cell
from simulator.vocabulary import SCENARIO_ORDER


@dataclass(frozen=True)
class Archive:
    """A header and its rows, sorted by :func:`row_key`."""

    header: ArchiveHeader
    rows: tuple[ArchiveRow, ...]


def _line(model: BaseModel, *, exclude_defaults: bool = False) -> str:
    return _json(model.model_dump(mode="json", exclude_defaults=exclude_defaults))


def _json(value: Any) -> str:
    return compact_json(value)


def encode_archive(archive: Archive) -> bytes:
    """The archive's exact file bytes (header fields at their default are left out)."""
    text = "".join([_line(archive.header, exclude_defaults=True) + "\n",
                    *row_lines(archive.rows, archive.header.fields)])
    return gzip.compress(text.encode("ascii"), compresslevel=9, mtime=0)


def write_archive(archive: Archive, path: Path | str) -> bytes:
    """Write atomically (temp file then rename); returns the bytes written.

    A failed write leaves neither a half-written archive nor the temp file behind, and an
    archive already at ``path`` unchanged.
    """
    path = Path(path)
    if path.is_dir():
        raise ArchiveError(f"{path}: is a directory, not an archive file to write")
    data = encode_archive(archive)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except BaseException as exc:
        if tmp.is_file():
            tmp.unlink()
        if isinstance(exc, OSError):
            raise ArchiveError(f"{path}: cannot be written ({exc.strerror or exc})") from None
        raise
    return data


def describe_error(exc: ValidationError) -> str:
    """One line for the first validation problem: field name and what is wrong with it."""
    errors = exc.errors()
    first = errors[0]
    field = ".".join(str(p) for p in first["loc"])
    kind = first["type"]
    if kind == "extra_forbidden":
        what = "field not allowed in an archive"
    elif kind == "missing":
        what = "field missing"
    else:
        shown = repr(first.get("input"))
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        what = f"{first['msg']} (got {shown})"
    extra = len(errors) - 1
    more = f" (and {extra} more problem{'s' if extra > 1 else ''})" if extra else ""
    return f"field {field!r}: {what}{more}" if field else f"{what}{more}"


def _parse_header(name: str, line: bytes) -> ArchiveHeader:
    try:
        raw: Any = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ArchiveError(f"{name}: line 1 (header): not valid JSON ({exc.msg})") from None
    except UnicodeDecodeError:
        raise ArchiveError(f"{name}: line 1 (header): not UTF-8 text") from None
    if not isinstance(raw, dict):
        raise ArchiveError(f"{name}: line 1 (header): expected a JSON object")
    version = raw.get("archive_version")
    if version != ARCHIVE_VERSION:
        raise ArchiveError(f"{name}: line 1 (header): field 'archive_version': unsupported "
                           f"version {version!r} (this layerrag reads {ARCHIVE_VERSION})")
    try:
        header = ArchiveHeader.model_validate(raw)
    except ValidationError as exc:
        raise ArchiveError(f"{name}: line 1 (header): {describe_error(exc)}") from None
    known = [f for f in ARCHIVE_FIELDS if f in header.fields or f not in OPTIONAL_FIELDS]
    if header.fields != known:
        raise ArchiveError(f"{name}: line 1 (header): field 'fields': {header.fields} is not "
                           f"the archive allowlist {list(ARCHIVE_FIELDS)} (optional: "
                           f"{', '.join(OPTIONAL_FIELDS)})")
    return header


def _parse_rows(name: str, header: ArchiveHeader, lines: Iterable[bytes]) -> list[ArchiveRow]:
    rows: list[ArchiveRow] = []
    seen: dict[tuple[str, str, str, str, str, int, str, int], int] = {}
    tasks = TaskAgreement()
    for number, line in enumerate(lines, start=2):
        if not line.strip():
            raise ArchiveError(f"{name}: line {number}: empty line")
        try:
            row = ArchiveRow.model_validate_json(line)
        except ValidationError as exc:
            raise ArchiveError(f"{name}: line {number}: {describe_error(exc)}") from None
        problem = (_columns_problem(header, line) or header_problem(header, row)
                   or row_problem(row) or tasks.problem(row, f"line {number}"))
        if problem:
            raise ArchiveError(f"{name}: line {number}: {problem}")
        key = row_key(row)
        if key in seen:
            raise ArchiveError(f"{name}: line {number}: duplicate of line {seen[key]} "
                               f"(same provider, model, arm, scenario, mode, task_row and epoch)")
        seen[key] = number
        rows.append(row)
    return rows


def _columns_problem(header: ArchiveHeader, line: bytes) -> str | None:
    """A row holds exactly the header's columns (it is a JSON object: it just validated)."""
    columns = json.loads(line)
    extra = [f for f in columns if f not in header.fields]
    if extra:
        return f"field {extra[0]!r}: not in the header's field list"
    missing = [f for f in header.fields if f not in columns]
    if missing:
        return f"field {missing[0]!r}: in the header's field list but missing from the row"
    return None


def load_archive(path: Path | str) -> Archive:
    """Read and validate an archive; the rows come back sorted by :func:`row_key`."""
    path = Path(path)
    name = str(path)
    try:
        text = gzip.decompress(path.read_bytes())
    except FileNotFoundError:
        raise ArchiveError(f"{name}: no such file") from None
    except (OSError, EOFError, zlib.error) as exc:
        raise ArchiveError(f"{name}: not a gzip archive ({exc})") from None
    lines = text.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if not lines:
        raise ArchiveError(f"{name}: empty archive (no header line)")
    header = _parse_header(name, lines[0])
    if len(lines) == 1:
        raise ArchiveError(f"{name}: a header and no rows (an archive holds at least one "
                           "record)")
    rows = _parse_rows(name, header, lines[1:])  # a row's own problem is named first
    if header.rows_sha256 is not None:
        if rows_digest(rows, header.fields) != header.rows_sha256:
            raise ArchiveError(f"{name}: the rows do not match the header's rows_sha256 "
                               f"({len(rows)} rows read): rows were deleted, added or "
                               "edited after export")
    problem = outside_the_run(header, rows)
    if problem:
        raise ArchiveError(f"{name}: {problem}")
    return Archive(header=header, rows=tuple(sorted(rows, key=row_key)))


def outside_the_run(header: ArchiveHeader, rows: Sequence[ArchiveRow]) -> str | None:
    """A row the run could not have made: outside its expected cells (or, in an archive
    made before those were recorded, of a scenario the vocabulary does not declare)."""
    if header.expected_records is not None:
        return unexpected_cell(header.expected_records, rows)
    unknown = sorted({r.scenario for r in rows} - set(SCENARIO_ORDER))
    if unknown:
        return (f"scenario {unknown[0]!r}: not a scenario layerrag declares "
                f"({', '.join(SCENARIO_ORDER)})")
    return None
