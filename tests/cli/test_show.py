"""``layerrag show``: the trajectories of the records a user asks for, readable and filtered.

Runs on the full default matrix (the session's ``deterministic_run``), as a user would after
the README's main command.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.runner.store import NO_TRAJECTORY, STORE_FILE
from tests.cli.test_bad_input import one_line_error


def show(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[str, str]:
    assert main(["show", *argv]) == 0
    captured = capsys.readouterr()
    return captured.out, captured.err


def test_a_stale_index_failure_says_what_was_asked_served_answered_and_why(
        deterministic_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, err = show(capsys, str(deterministic_run), "--failed", "--scenario", "stale_index",
                    "--limit", "1")
    assert out.count("\n== ") + out.startswith("== ") == 1
    assert "|stale_index|" in out.splitlines()[0]
    assert "Question: How many days is the return window" in out
    assert "search_policies(query='How many days is the return window" in out
    assert "stale_index: served the stale index snapshot snapshot-2022-r1" in out
    assert "shown with status current (registry: superseded)" in out
    assert "Answer: '45 days'" in out
    assert "Expected: '30 days'" in out
    assert "E    FAIL '45 days' is the superseded value" in out
    assert "Why S failed: freshness" in out
    assert err.startswith("1 of 480 matching records shown; 479 more")


def test_twin_puts_the_clean_record_beside_the_faulted_one(
        deterministic_run: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    out, _ = show(capsys, str(deterministic_run), "--scenario", "wrong_session", "--mode",
                  "strict", "--twin", "--limit", "1")
    first = out.splitlines()[0]
    assert "|wrong_session|strict|" in first and "| == deterministic|clean|strict|" in first
    assert "another session's state" in out
    assert any("S FAIL" in line and "S ok" in line for line in out.splitlines())


def test_json_holds_only_records_the_filters_match(
        deterministic_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = show(capsys, str(deterministic_run), "--failed", "--mode", "repair", "--arm",
                  "uncontrolled", "--limit", "0", "--json", "--scenario", "partial_timeout")
    data = json.loads(out)
    assert data["matched"] == data["shown"] == len(data["records"]) > 0
    for entry in data["records"]:
        record = entry["record"]
        assert (record["scenario"], record["contract_mode"], record["S"]) == (
            "partial_timeout", "repair", False)
        assert entry["trajectory"]["verdict"]["S"]["ok"] is False
        assert entry["twin"] is None


def test_a_task_is_found_by_id_or_row_in_every_cell(
        deterministic_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    by_id = json.loads(show(capsys, str(deterministic_run), "--task", "task_79aabbe72f47",
                            "--limit", "0", "--json")[0])
    by_row = json.loads(show(capsys, str(deterministic_run), "--task", "0", "--limit", "0",
                             "--json")[0])
    assert by_id["matched"] == by_row["matched"] == 9 * 2
    assert {r["key"] for r in by_id["records"]} == {r["key"] for r in by_row["records"]}


@pytest.mark.parametrize(("argv", "names"), [
    (["--scenario", "stale"], "--scenario stale: not in this run"),
    (["--mode", "lenient"], "--mode lenient: not in this run (it has repair, strict)"),
    (["--arm", "controlled"], "--arm controlled: not in this run"),
    (["--task", "task_nope"], "--task task_nope: no record of this run"),
    (["--limit", "-1"], "--limit must be 0 (all) or more"),
])
def test_a_filter_the_run_cannot_match_is_one_line_naming_it(
        deterministic_run: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
        names: str) -> None:
    assert names in one_line_error(capsys, "show", str(deterministic_run), *argv)


def test_an_archive_or_a_missing_run_is_refused_by_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive = tmp_path / "run.jsonl.gz"
    archive.write_bytes(b"")
    assert "an archive keeps no trajectories" in one_line_error(capsys, "show", str(archive))
    assert "no run store" in one_line_error(capsys, "show", str(tmp_path / "nothing"))


def test_a_store_from_before_trajectories_still_shows_its_scores(
        deterministic_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old = tmp_path / "old"
    old.mkdir()
    shutil.copy(deterministic_run / STORE_FILE, old / STORE_FILE)
    with sqlite3.connect(old / STORE_FILE) as db:
        db.execute("DROP TABLE trajectories")
    out, err = show(capsys, str(old), "--failed", "--limit", "1")
    assert "S FAIL" in out and NO_TRAJECTORY in out
    assert "older than trajectories" in err
