"""Interrupted runs leave a consistent store; re-running resumes to the same record set."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from simulator.runner.store import RunStore

ARGS = ["--tasks", "60", "--scenarios", "clean,partial_timeout,wrong_session,schema_drift",
        "--no-progress", "--format", "none"]


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "simulator.cli.main", *args]


def _count(out: Path) -> int:
    try:
        with sqlite3.connect(out / "runs.sqlite", timeout=5) as db:
            return int(db.execute("SELECT COUNT(*) FROM records").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


def _comparable(out: Path) -> dict[str, dict[str, object]]:
    with RunStore(out) as store:
        return {r.key.as_str(): r.model_dump(exclude={"latency_ms"}) for r in store.records()}


def _interrupt_midway(out: Path, sig: int) -> None:
    proc = subprocess.Popen(_cli("run", "--out", str(out), *ARGS), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while _count(out) < 100 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert proc.poll() is None, "the run finished before it could be interrupted"
    proc.send_signal(sig)
    proc.wait(timeout=30)
    assert 0 < _count(out) < 480


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, object]]:
    out = tmp_path_factory.mktemp("reference")
    subprocess.run(_cli("run", "--out", str(out), *ARGS), check=True, capture_output=True)
    return _comparable(out)


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT], ids=["kill", "ctrl-c"])
def test_a_killed_run_resumes_to_the_uninterrupted_record_set(
        tmp_path: Path, reference: dict[str, dict[str, object]], sig: int) -> None:
    out = tmp_path / "run"
    _interrupt_midway(out, sig)
    result = subprocess.run(_cli("run", "--out", str(out), *ARGS), capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert _comparable(out) == reference


def test_rerunning_a_finished_run_adds_nothing(tmp_path: Path) -> None:
    args = ["--tasks", "6", "--scenarios", "clean", "--no-progress", "--format", "none"]
    first = subprocess.run(_cli("run", "--out", str(tmp_path), *args), capture_output=True,
                           text=True, check=True)
    assert "12 records written" in first.stderr
    again = subprocess.run(_cli("run", "--out", str(tmp_path), *args), capture_output=True,
                           text=True, check=True)
    assert "0 records written, 12 already done" in again.stderr


def test_a_run_dir_with_another_configuration_is_refused(tmp_path: Path) -> None:
    base = ["--tasks", "3", "--scenarios", "clean", "--no-progress", "--format", "none"]
    subprocess.run(_cli("run", "--out", str(tmp_path), *base), check=True, capture_output=True)
    other = subprocess.run(_cli("run", "--out", str(tmp_path), *base, "--seed", "5"),
                           capture_output=True, text=True, check=False)
    assert other.returncode == 2
    assert other.stderr.count("\n") == 1 and "seed" in other.stderr
    assert _count(tmp_path) == 6


@pytest.mark.parametrize("option,value,hint", [
    ("--scenarios", "stale_indx", "stale_index"), ("--modes", "strikt", "strict"),
    ("--model", "determinstic", "deterministic"), ("--arms", "uncontroled", "uncontrolled")])
def test_unknown_names_are_one_line_with_a_suggestion(tmp_path: Path, option: str, value: str,
                                                      hint: str) -> None:
    result = subprocess.run(_cli("run", "--out", str(tmp_path / "x"), option, value),
                            capture_output=True, text=True, check=False)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and f"Did you mean: {hint}?" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "x").exists()


def test_resuming_with_a_redefined_arm_is_refused(tmp_path: Path) -> None:
    base = ["--tasks", "2", "--scenarios", "clean", "--no-progress", "--format", "none"]
    subprocess.run(_cli("run", "--out", str(tmp_path), *base, "--arms", "mine=bounded_retry"),
                   check=True, capture_output=True)
    other = subprocess.run(
        _cli("run", "--out", str(tmp_path), *base, "--arms", "mine=session_isolation"),
        capture_output=True, text=True, check=False)
    assert other.returncode == 2 and "arm_definitions" in other.stderr
    assert _count(tmp_path) == 4  # 2 tasks x 2 contract modes, untouched
