"""Records that measured nothing are unjudged, counted apart and never averaged in."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from simulator.judge.deterministic import judge_record
from simulator.judge.run import judge_run, run_labels
from simulator.judge.weights import PAPER
from simulator.runner.store import STORE_FILE, RunStore
from simulator.stats.judged import summarize


@pytest.mark.parametrize("flag", ["agent_error", "provider_error", "reader_error"])
def test_an_errored_record_is_unjudged_with_its_reason(small_run: Path, flag: str) -> None:
    with RunStore(small_run, create=False) as store:
        record = next(store.records())
        labels = run_labels(store)[record.task_id]
    broken = record.model_copy(update={flag: True, "reason": "boom"})
    judgment = judge_record(broken, labels)
    assert judgment.status == "unjudged" and not judgment.scores
    assert judgment.reason is not None and "boom" in judgment.reason


def test_an_unreadable_record_is_unjudged_and_left_out_of_every_mean(
        small_run: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(small_run, run)
    with sqlite3.connect(run / STORE_FILE) as db:
        key, = db.execute("SELECT key FROM records WHERE scenario='clean' AND "
                          "contract_mode='strict' LIMIT 1").fetchone()
        db.execute("UPDATE records SET data='{\"not\": \"a record\"}' WHERE key=?", (key,))
    judged, stored = judge_run(run)
    assert stored
    bad = [j for j in judged if j.judgment.key == key]
    assert bad[0].judgment.status == "unjudged"
    assert "unreadable record" in (bad[0].judgment.reason or "")
    cell = next(c for c in summarize(judged, PAPER, replicates=20)
                if (c.scenario, c.contract_mode) == ("clean", "strict"))
    assert (cell.records, cell.judged, cell.unjudged) == (24, 23, 1)
    assert cell.s_final is not None and cell.s_final.n == 23
