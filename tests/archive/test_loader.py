"""The loader rejects a tampered archive with one line naming the line and the field."""

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


@pytest.fixture
def lines(make_run: Callable[..., Path], tmp_path: Path) -> list[dict[str, Any]]:
    out = tmp_path / "good.jsonl.gz"
    export_archive(make_run(), out)
    return [json.loads(x) for x in gzip.decompress(out.read_bytes()).splitlines()]


def _write(tmp_path: Path, objs: list[Any], name: str = "bad.jsonl.gz") -> Path:
    path = tmp_path / name
    text = "".join((o if isinstance(o, str) else json.dumps(o)) + "\n" for o in objs)
    path.write_bytes(gzip.compress(text.encode(), mtime=0))
    return path


def _error(path: Path) -> str:
    with pytest.raises(ArchiveError) as info:
        load_archive(path)
    message = str(info.value)
    assert "\n" not in message
    return message


def test_an_untouched_archive_loads(lines: list[dict[str, Any]], tmp_path: Path) -> None:
    archive = load_archive(_write(tmp_path, lines))
    assert len(archive.rows) == len(lines) - 1


def test_an_extra_field_is_named_with_its_line(lines: list[dict[str, Any]],
                                               tmp_path: Path) -> None:
    lines[3]["answer"] = "45 days"
    assert _error(_write(tmp_path, lines)).endswith(
        "line 4: field 'answer': field not allowed in an archive")


def test_a_missing_field_is_named_with_its_line(lines: list[dict[str, Any]],
                                                tmp_path: Path) -> None:
    del lines[5]["grounded"]
    assert "line 6: field 'grounded': field missing" in _error(_write(tmp_path, lines))


def test_a_number_where_a_boolean_belongs_is_rejected(lines: list[dict[str, Any]],
                                                      tmp_path: Path) -> None:
    lines[2]["S"] = 1
    message = _error(_write(tmp_path, lines))
    assert "line 3: field 'S': Input should be a valid boolean" in message


def test_a_string_where_an_integer_belongs_is_rejected(lines: list[dict[str, Any]],
                                                       tmp_path: Path) -> None:
    lines[2]["task_row"] = "7"
    assert "line 3: field 'task_row'" in _error(_write(tmp_path, lines))


def test_an_unknown_failure_layer_is_rejected(lines: list[dict[str, Any]],
                                              tmp_path: Path) -> None:
    lines[1]["failure_layer"] = "gremlins"
    assert "line 2: field 'failure_layer'" in _error(_write(tmp_path, lines))


def test_a_row_of_another_run_is_rejected(lines: list[dict[str, Any]], tmp_path: Path) -> None:
    lines[1]["run_id"] = "other-run"
    assert "line 2: field 'run_id'" in _error(_write(tmp_path, lines))


def test_a_duplicated_row_is_rejected(lines: list[dict[str, Any]], tmp_path: Path) -> None:
    lines.append(lines[1])
    assert f"line {len(lines)}: duplicate of line 2" in _error(_write(tmp_path, lines))


def test_a_header_with_an_extra_field_is_rejected(lines: list[dict[str, Any]],
                                                  tmp_path: Path) -> None:
    lines[0]["config"] = {"api_key": "x"}
    assert "line 1 (header): field 'config'" in _error(_write(tmp_path, lines))


def test_a_header_whose_field_list_differs_from_the_allowlist_is_rejected(
        lines: list[dict[str, Any]], tmp_path: Path) -> None:
    lines[0]["fields"] = [*lines[0]["fields"], "answer"]
    assert "line 1 (header): field 'fields'" in _error(_write(tmp_path, lines))


def test_an_unknown_archive_version_is_rejected(lines: list[dict[str, Any]],
                                                tmp_path: Path) -> None:
    lines[0]["archive_version"] = 99
    assert "unsupported version 99" in _error(_write(tmp_path, lines))


def test_a_line_that_is_not_json_is_rejected(lines: list[dict[str, Any]],
                                             tmp_path: Path) -> None:
    objs: list[Any] = [*lines[:3], "{not json", *lines[3:]]
    assert "line 4:" in _error(_write(tmp_path, objs))


def test_a_file_that_is_not_gzip_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "plain.jsonl.gz"
    path.write_text('{"archive_version": 1}\n')
    assert "not a gzip archive" in _error(path)


def test_an_empty_archive_is_rejected(tmp_path: Path) -> None:
    assert "empty archive" in _error(_write(tmp_path, []))


def test_recompute_of_a_tampered_archive_exits_2_with_one_line(
        lines: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines[3]["reason"] = "because"
    code = main(["archive", "recompute", str(_write(tmp_path, lines))])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and "line 4: field 'reason'" in err
