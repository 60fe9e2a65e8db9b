"""``layerrag run --suite cases``: its report, its refusals in one line, and a run killed
with SIGKILL that resumes without losing or duplicating a turn."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.runner.store import RunStore
from tests.conversations.conftest import kill_at_first_stored_position


def test_run_prints_the_cases_report_and_report_reprints_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert main(["run", "--suite", "cases", "--out", str(out), "--tasks", "3", "--scenarios",
                 "clean,wrong_session", "--modes", "strict", "--no-progress"]) == 0
    printed = capsys.readouterr()
    assert "## Cases (faults at:2)" in printed.out and "## Turns by position" in printed.out
    assert "turns written, 0 already done" in printed.err
    assert main(["report", str(out), "--format", "json", "--replicates", "20"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [c["scenario"] for c in report["cases"]] == ["clean", "wrong_session"]
    assert report["after_fault"][0]["scenario"] == "wrong_session"


@pytest.mark.parametrize(("argv", "message"), [
    (["--fault-turns", "at:2"], "--fault-turns at:2: schedules faults in conversations; add "
                                "--suite cases"),
    (["--suite", "cases", "--fault-turns", "turn 2"], "expected at:K, from:K"),
    (["--epochs", "3"], "--epochs 3: repeats the cases of --suite cases; add --suite cases"),
    (["--suite", "cases", "--epochs", "0"], "--epochs 0: input should be greater than or "
                                            "equal to 1"),
])
def test_refusals_are_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          argv: list[str], message: str) -> None:
    assert main(["run", "--out", str(tmp_path / "run"), "--no-progress", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err
    assert not (tmp_path / "run" / "runs.sqlite").exists()


def test_epochs_repeat_each_case_and_give_pass_k(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert main(["run", "--suite", "cases", "--out", str(out), "--tasks", "4", "--epochs", "3",
                 "--scenarios", "clean", "--modes", "strict", "--format", "json",
                 "--no-progress"]) == 0
    (cell,) = json.loads(capsys.readouterr().out)["cases"]
    assert cell["cases"] == 12 and set(cell["pass_k"]) == {"1", "2", "3"}
    # the deterministic reader gives every epoch the same conversation: pass^k is flat
    assert cell["pass_k"]["1"] == cell["pass_k"]["3"] == cell["resolved"]["k"] / 12
    with RunStore(out, create=False) as store:
        epochs = {r.case.epoch for r in store.records() if r.case is not None}
        assert epochs == {1, 2, 3} and store.count() == 3 * sum(
            1 for r in store.records() if r.case is not None and r.case.epoch == 1)


@pytest.mark.slow
def test_a_run_killed_with_sigkill_resumes_without_losing_or_duplicating_a_turn(
        tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "simulator.cli.main", "run", "--suite", "cases", "--tasks",
            "12", "--scenarios", "clean,wrong_session,stale_index", "--format", "none"]
    whole, killed = tmp_path / "whole", tmp_path / "killed"
    env = {**os.environ, "PYTHONPATH": str(Path.cwd())}
    subprocess.run([*argv, "--out", str(whole), "--no-progress"], check=True, env=env,
                   capture_output=True)
    kill_at_first_stored_position([*argv, "--out", str(killed)], env)
    with RunStore(killed, create=False) as store:
        partial = store.count()
    with RunStore(whole, create=False) as store:
        expected = {r.key.as_str(): r for r in store.records()}
    assert 0 < partial < len(expected)
    resumed = subprocess.run([*argv, "--out", str(killed), "--no-progress"], env=env,
                             capture_output=True, text=True, check=True)
    assert f"{len(expected) - partial} turns written, {partial} already done" in resumed.stderr
    with RunStore(killed, create=False) as store:
        got = {r.key.as_str(): r for r in store.records()}
    assert got.keys() == expected.keys()
    for key, record in expected.items():
        assert record.case is not None and got[key].case is not None
        assert (got[key].answer, got[key].case.reply, got[key].case.history) == \
            (record.answer, record.case.reply, record.case.history), key


def test_show_failed_lists_unsafe_turns_with_their_conversation(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert main(["run", "--suite", "cases", "--out", str(out), "--tasks", "4", "--scenarios",
                 "wrong_session", "--modes", "strict", "--format", "none",
                 "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["show", str(out), "--failed"]) == 0
    shown = capsys.readouterr().out
    assert "Turn NOT safe" in shown and "Turn safe" not in shown
    assert "earlier: " in shown and "memory mixed" in shown


def test_show_gives_a_clarify_or_abstain_turn_its_own_verdict(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A turn with no value is not given strict checks that cannot apply: show says what a
    safe reply was there and whether the reply was one; a value turn keeps E R G V S."""
    out = tmp_path / "run"
    assert main(["run", "--suite", "cases", "--out", str(out), "--tasks", "3", "--scenarios",
                 "clean", "--modes", "strict", "--format", "none", "--no-progress"]) == 0
    capsys.readouterr()
    assert main(["show", str(out), "--limit", "0"]) == 0
    blocks = capsys.readouterr().out.split("\n== ")
    asked = [b for b in blocks if "(underspecified)" in b]
    declined = [b for b in blocks if "(unanswerable)" in b]
    valued = [b for b in blocks if "(answerable)" in b]
    assert asked and declined and valued
    for block in asked + declined:
        assert "strict S does not apply" in block and "   S    " not in block
    assert all("Expected: a clarifying question" in b for b in asked)
    assert all("Expected: a structured non-answer" in b for b in declined)
    assert all("   S    " in b and "reply: " in b for b in valued)
