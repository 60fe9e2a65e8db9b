"""An archive whose rows break the scorer's own rules is refused, naming the first bad line.

Each test edits one row of a genuine archive the way a hand or a script would, and
``load_archive`` (what ``layerrag archive recompute`` reads with) must refuse it rather than
recompute changed figures without a word.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from simulator.archive import export_archive, load_archive
from simulator.cli.main import main
from simulator.errors import ArchiveError

Edit = Callable[[list[dict[str, Any]], dict[str, Any]], None]


@pytest.fixture
def archive_lines(make_run: Callable[..., Path], tmp_path: Path) -> tuple[dict, list[dict]]:
    path = tmp_path / "a.jsonl.gz"
    export_archive(make_run(), path)
    header, *rows = (json.loads(line) for line in gzip.decompress(path.read_bytes()).splitlines())
    # the row rules are tested on their own, as in an archive made before rows carried a
    # digest; the digest's own refusals are tests/integrity/test_archive_tampering.py
    header.pop("rows_sha256")
    return header, rows


def _write(path: Path, header: dict, rows: list[dict]) -> Path:
    text = "".join(json.dumps(x, separators=(",", ":")) + "\n" for x in (header, *rows))
    path.write_bytes(gzip.compress(text.encode()))
    return path


def _first(rows: list[dict], **match: Any) -> int:
    return next(i for i, r in enumerate(rows) if all(r[k] == v for k, v in match.items()))


def _refused(tmp_path: Path, header: dict, rows: list[dict]) -> str:
    with pytest.raises(ArchiveError) as caught:
        load_archive(_write(tmp_path / "edited.jsonl.gz", header, rows))
    return str(caught.value)


def test_an_unedited_archive_loads(archive_lines: tuple[dict, list[dict]],
                                   tmp_path: Path) -> None:
    header, rows = archive_lines
    assert len(load_archive(_write(tmp_path / "same.jsonl.gz", header, rows)).rows) == len(rows)


def test_a_row_with_s_flipped_is_refused_naming_its_line(
        archive_lines: tuple[dict, list[dict]], tmp_path: Path) -> None:
    header, rows = archive_lines
    i = _first(rows, S=True)
    rows[i] = {**rows[i], "S": False}
    message = _refused(tmp_path, header, rows)
    assert f"line {i + 2}: field 'S'" in message and "E and R and G and V" in message


def test_a_consistently_edited_success_still_fails_on_its_failure_layer(
        archive_lines: tuple[dict, list[dict]], tmp_path: Path) -> None:
    header, rows = archive_lines
    i = _first(rows, S=True)
    rows[i] = {**rows[i], "E": False, "S": False}
    assert f"line {i + 2}: field 'failure_layer'" in _refused(tmp_path, header, rows)


@pytest.mark.parametrize(("match", "change", "field"), [
    ({"S": False}, {"failure_layer": None}, "failure_layer"),
    ({"S": True}, {"failure_layer": "reader"}, "failure_layer"),
    ({"S": False, "abstained": False}, {"safe_resolution": True}, "safe_resolution"),
    ({"S": False, "E": False}, {"abstained": True, "grounded": True}, "grounded"),
    ({"S": True}, {"contract_mode": "lenient"}, "contract_mode"),
    ({"S": False}, {"failure_layer": "provider"}, "failure_layer"),
], ids=["no-layer-on-a-failure", "layer-on-a-success", "safe-without-reason",
        "grounded-abstention", "unknown-mode", "provider-layer-without-error"])
def test_a_row_breaking_a_scoring_rule_is_refused(
        archive_lines: tuple[dict, list[dict]], tmp_path: Path, match: dict[str, Any],
        change: dict[str, Any], field: str) -> None:
    header, rows = archive_lines
    i = _first(rows, **match)
    rows[i] = {**rows[i], **change}
    assert f"line {i + 2}: field {field!r}" in _refused(tmp_path, header, rows)


def test_a_row_without_a_column_of_the_header_is_refused(
        archive_lines: tuple[dict, list[dict]], tmp_path: Path) -> None:
    header, rows = archive_lines
    header = {**header, "fields": [*header["fields"][:6], "agent", *header["fields"][6:]],
              "agent": "react"}
    rows = [{**r, "agent": "react"} for r in rows]
    del rows[3]["agent"]
    assert "line 5: field 'agent': in the header's field list but missing" in _refused(
        tmp_path, header, rows)


def test_a_row_of_another_agent_than_the_header_is_refused(
        archive_lines: tuple[dict, list[dict]], tmp_path: Path) -> None:
    header, rows = archive_lines
    header = {**header, "fields": [*header["fields"][:6], "agent", *header["fields"][6:]],
              "agent": "react"}
    rows = [{**r, "agent": "react"} for r in rows]
    rows[0]["agent"] = "mine"
    assert "line 2: field 'agent'" in _refused(tmp_path, header, rows)


def test_a_task_moved_to_another_unit_is_refused(
        archive_lines: tuple[dict, list[dict]], tmp_path: Path) -> None:
    header, rows = archive_lines
    later = max(i for i, r in enumerate(rows) if r["task_row"] == rows[0]["task_row"])
    rows[later] = {**rows[later], "unit": rows[later]["unit"] + 1}
    message = _refused(tmp_path, header, rows)
    assert f"line {later + 2}: field 'unit'" in message and "line 2" in message


def test_recompute_refuses_an_edited_archive_with_one_line_and_exit_2(
        archive_lines: tuple[dict, list[dict]], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    header, rows = archive_lines
    i = _first(rows, S=True)
    rows[i] = {**rows[i], "S": False}
    path = _write(tmp_path / "edited.jsonl.gz", header, rows)
    assert main(["archive", "recompute", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and f"line {i + 2}: field 'S'" in captured.err


def _with_reader_errors(header: dict, rows: list[dict]) -> tuple[dict, list[dict]]:
    """The archive as it is written once some row is a reader error: the optional
    ``reader_error`` column right after ``provider_error``."""
    fields = list(header["fields"])
    fields.insert(fields.index("provider_error") + 1, "reader_error")
    return {**header, "fields": fields}, [{**r, "reader_error": False} for r in rows]


def _unparseable(row: dict) -> dict:
    """``row`` as the scorer writes a reader error: no answer, not abstained, not safe."""
    return {**row, "E": False, "S": False, "abstained": False, "grounded": False,
            "safe_resolution": False, "failure_layer": "reader", "reader_error": True}


def test_a_reader_error_loads_and_keeps_its_flag(
        archive_lines: tuple[dict, list[dict]], tmp_path: Path) -> None:
    header, rows = _with_reader_errors(*archive_lines)
    i = _first(rows, S=False, provider_error=False, failure_layer="freshness")
    rows[i] = _unparseable(rows[i])
    loaded = load_archive(_write(tmp_path / "reader.jsonl.gz", header, rows))
    assert sum(r.reader_error for r in loaded.rows) == 1


@pytest.mark.parametrize(("change", "field"), [
    ({"failure_layer": "freshness"}, "failure_layer"),
    ({"abstained": True}, "abstained"),
    ({"safe_resolution": True}, "safe_resolution"),
], ids=["another-layer", "abstained", "safe"])
def test_a_reader_error_that_reads_as_a_non_answer_is_refused(
        archive_lines: tuple[dict, list[dict]], tmp_path: Path, change: dict[str, Any],
        field: str) -> None:
    header, rows = _with_reader_errors(*archive_lines)
    i = _first(rows, S=False, provider_error=False, failure_layer="freshness")
    rows[i] = {**_unparseable(rows[i]), **change}
    assert f"line {i + 2}: field {field!r}" in _refused(tmp_path, header, rows)
