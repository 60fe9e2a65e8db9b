"""A partial run never passes as finished: ``report``, ``archive export`` and ``archive
recompute`` say ``incomplete: N of M records; cells missing: ...`` and exit 6 unless
``--allow-partial``; the concise report's first line says so.

The partial run is a real one cut short the way a kill leaves it: the records of one cell
and part of another never reached the store.
"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.runner.completeness import EXIT_INCOMPLETE, expected_records, incompleteness
from simulator.runner.store import STORE_FILE
from tests.conftest import TINY_SPEC

ARGS = ["--spec", str(TINY_SPEC), "--tasks", "4", "--scenarios", "clean,stale_index",
        "--no-progress", "--format", "none"]


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("whole") / "run"
    assert main(["run", "--out", str(out), *ARGS]) == 0
    return out


@pytest.fixture
def partial(whole: Path, tmp_path: Path) -> Path:
    out = tmp_path / "partial"
    shutil.copytree(whole, out)
    with sqlite3.connect(out / STORE_FILE) as db:
        db.execute("DELETE FROM records WHERE scenario='stale_index' AND contract_mode='repair'")
        db.execute("DELETE FROM records WHERE scenario='stale_index' AND task_row >= 2")
    return out


def test_a_whole_run_reports_with_exit_0_and_no_flag(
        whole: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(whole)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "# layerrag report"


def test_a_partial_run_report_says_incomplete_on_its_first_line_and_exits_5(
        partial: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(partial)]) == EXIT_INCOMPLETE
    captured = capsys.readouterr()
    first = captured.out.splitlines()[0]
    assert first.startswith("# layerrag report — incomplete: 10 of 16 records; cells missing:")
    assert "deterministic/stale_index/strict/uncontrolled (2 of 4)" in first
    assert "deterministic/stale_index/repair/uncontrolled (0 of 4)" in first
    assert captured.err.count("\n") == 1 and "incomplete: 10 of 16" in captured.err


def test_allow_partial_keeps_the_flag_and_exits_0(
        partial: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(partial), "--allow-partial"]) == 0
    assert "incomplete: 10 of 16" in capsys.readouterr().out.splitlines()[0]


def test_export_and_recompute_of_a_partial_run_exit_5(
        partial: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive = tmp_path / "a.jsonl.gz"
    assert main(["archive", "export", str(partial), "--out", str(archive)]) == EXIT_INCOMPLETE
    assert "incomplete: 10 of 16" in capsys.readouterr().err
    assert main(["archive", "recompute", str(archive)]) == EXIT_INCOMPLETE
    assert capsys.readouterr().out.startswith("# layerrag report — incomplete: 10 of 16")
    assert main(["archive", "recompute", str(archive), "--allow-partial"]) == 0


def test_an_export_of_a_whole_run_exits_0(whole: Path, tmp_path: Path) -> None:
    assert main(["archive", "export", str(whole), "--out", str(tmp_path / "a.gz")]) == 0


def test_the_message_names_at_most_four_cells_and_counts_the_rest() -> None:
    expected = expected_records(["m"], [f"s{i}" for i in range(6)], ["strict"], ["a"], 2)
    line = incompleteness(expected, [])
    assert line is not None and line.startswith("incomplete: 0 of 12 records; cells missing:")
    assert line.endswith("m/s3/strict/a (0 of 2) and 2 more")
