"""The six tampering cases of issue 31, each refused by ``archive recompute`` in one line:
a deleted row, an added row, a scenario renamed to an unknown name, a header without rows,
a row whose variant or whose domain disagrees with its task; and answers capped in the
store."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from simulator.answers.schema import MAX_ANSWER_CHARS, AgentAnswer
from simulator.archive import export_archive, load_archive
from simulator.cli.main import main
from simulator.runner.completeness import EXIT_INCOMPLETE
from tests.conftest import TINY_SPEC


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tamper")
    run = root / "run"
    assert main(["run", "--out", str(run), "--spec", str(TINY_SPEC), "--tasks", "3",
                 "--scenarios", "clean,schema_drift", "--no-progress", "--format",
                 "none"]) == 0
    export_archive(run, root / "a.jsonl.gz")
    return root / "a.jsonl.gz"


def lines_of(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    header, *rows = (json.loads(x) for x in gzip.decompress(path.read_bytes()).splitlines())
    return header, rows


def write(path: Path, header: dict[str, Any], rows: list[dict[str, Any]]) -> Path:
    text = "".join(json.dumps(x, separators=(",", ":")) + "\n" for x in (header, *rows))
    path.write_bytes(gzip.compress(text.encode()))
    return path


def refused(capsys: pytest.CaptureFixture[str], path: Path) -> str:
    assert main(["archive", "recompute", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: "), err
    return err


def test_the_exported_archive_recomputes(exported: Path) -> None:
    assert len(load_archive(exported).rows) == 3 * 2 * 2


def test_a_deleted_row_is_refused(exported: Path, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    header, rows = lines_of(exported)
    err = refused(capsys, write(tmp_path / "x.gz", header, rows[1:]))
    assert "rows_sha256" in err and "deleted" in err


def test_a_deleted_row_without_the_digest_is_still_named_as_missing(
        exported: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    header, rows = lines_of(exported)
    del header["rows_sha256"]
    path = write(tmp_path / "x.gz", header, rows[1:])
    assert main(["archive", "recompute", str(path)]) == EXIT_INCOMPLETE
    captured = capsys.readouterr()
    assert "incomplete: 11 of 12 records; cells missing:" in captured.err
    assert captured.out.splitlines()[0].startswith("# layerrag report — incomplete: 11 of 12")


def test_an_added_row_is_refused(exported: Path, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    header, rows = lines_of(exported)
    extra = {**rows[0], "task_row": 99}
    err = refused(capsys, write(tmp_path / "x.gz", header, [*rows, extra]))
    assert "rows_sha256" in err
    del header["rows_sha256"]
    err = refused(capsys, write(tmp_path / "y.gz", header, [*rows, extra]))
    assert "rows were added" in err


@pytest.mark.parametrize("digest", [True, False], ids=["with-digest", "without"])
def test_a_scenario_renamed_to_an_unknown_name_is_refused(
        exported: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        digest: bool) -> None:
    header, rows = lines_of(exported)
    if not digest:
        del header["rows_sha256"]
        del header["expected_records"]
    rows = [{**r, "scenario": "no_such_fault"} if r["scenario"] == "clean" else r
            for r in rows]
    err = refused(capsys, write(tmp_path / "x.gz", header, rows))
    assert "no_such_fault" in err or "rows_sha256" in err


def test_a_header_without_rows_is_refused(exported: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    header, _ = lines_of(exported)
    assert "a header and no rows" in refused(capsys, write(tmp_path / "x.gz", header, []))


@pytest.mark.parametrize("field", ["variant", "domain", "unit"])
def test_a_row_whose_task_fields_disagree_with_its_task_is_refused(
        exported: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        field: str) -> None:
    header, rows = lines_of(exported)
    del header["rows_sha256"]  # the row rule on its own, as in an older archive
    target = rows[-1]
    value = target[field]
    rows[-1] = {**target, field: (value + 1) if isinstance(value, int) else "legal"}
    err = refused(capsys, write(tmp_path / "x.gz", header, rows))
    assert f"field {field!r}: task_row {target['task_row']}" in err


def test_an_answer_longer_than_the_cap_is_cut_and_flagged() -> None:
    long = AgentAnswer(answer="x" * (MAX_ANSWER_CHARS * 5000), citations=("d1",))
    assert len(long.answer or "") == MAX_ANSWER_CHARS and long.truncated
    short = AgentAnswer(answer="45 days", citations=("d1",))
    assert not short.truncated and short.answer == "45 days"
    reason = AgentAnswer(answer=None, abstained=True, reason="r" * (MAX_ANSWER_CHARS + 1))
    assert len(reason.reason or "") == MAX_ANSWER_CHARS and reason.truncated
