"""Judgments live in their own table of the run store; older stores read as before."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from simulator.judge.deterministic import JUDGE_NAME, RUBRIC_HASH
from simulator.judge.run import judge_run
from simulator.judge.store import judges_in, read_judgments
from simulator.runner.store import STORE_FILE, RunStore


def test_a_store_made_before_judges_has_no_judgments(small_run: Path, tmp_path: Path) -> None:
    run = tmp_path / "old"
    shutil.copytree(small_run, run)
    with sqlite3.connect(run / STORE_FILE) as db:
        db.execute("DROP TABLE IF EXISTS judgments")
    with RunStore(run, create=False) as store:
        assert judges_in(store) == {}
        assert list(read_judgments(store, JUDGE_NAME)) == []
        assert store.count() == 432


def test_judging_twice_replaces_the_judges_rows(small_run: Path, tmp_path: Path) -> None:
    run = tmp_path / "twice"
    shutil.copytree(small_run, run)
    first, _ = judge_run(run)
    judge_run(run)
    with RunStore(run, create=False) as store:
        stored = list(read_judgments(store, JUDGE_NAME))
        assert judges_in(store) == {JUDGE_NAME: {RUBRIC_HASH}}
        assert len(list(store.records())) == 432  # the records are untouched
    assert len(stored) == len(first) == 432
    assert {j.key: j for j in stored} == {j.judgment.key: j.judgment for j in first}
