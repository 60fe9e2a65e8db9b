"""One process per run directory: a second one on the same directory is refused in one
line before it spends or computes anything; a killed holder leaves no stale lock."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.runner.lock import lock_path, run_dir_lock
from tests.conftest import TINY_SPEC

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["--spec", str(TINY_SPEC), "--tasks", "1", "--modes", "strict", "--scenarios",
         "clean", "--no-progress", "--format", "none"]
HOLD = ("import sys\nfrom simulator.runner.lock import run_dir_lock\n"
        "with run_dir_lock(sys.argv[1]):\n    print('held', flush=True)\n    sys.stdin.read()\n")


@pytest.fixture
def held(tmp_path: Path) -> Iterator[tuple[Path, subprocess.Popen[str]]]:
    """``tmp_path/run`` held by another process until the test ends."""
    out = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(out)], cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    yield out, proc
    if proc.poll() is None:
        proc.kill()
    proc.wait(timeout=30)


def test_a_second_run_on_a_held_directory_is_refused_in_one_line(
        held: tuple[Path, subprocess.Popen[str]], capsys: pytest.CaptureFixture[str]) -> None:
    out, holder = held
    assert main(["run", "--out", str(out), *SMALL]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "in use by another layerrag process" in err, err
    assert f"pid {holder.pid}" in err
    assert not out.exists()


def test_a_second_live_run_is_refused_before_any_request(
        held: tuple[Path, subprocess.Popen[str]], capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = held
    # port 9 (discard) is closed: had the preflight run, the error would say unreachable
    assert main(["run", "--out", str(out), "--model", "openai:m", "--base-url",
                 "http://127.0.0.1:9/v1", "--max-calls", "4", *SMALL]) == 2
    assert "in use by another layerrag process" in capsys.readouterr().err
    assert not out.exists()


def test_a_killed_holder_leaves_no_stale_lock(
        held: tuple[Path, subprocess.Popen[str]]) -> None:
    out, holder = held
    holder.send_signal(signal.SIGKILL)
    holder.wait(timeout=30)
    assert main(["run", "--out", str(out), *SMALL]) == 0


def test_the_lock_is_reentrant_in_one_process_and_leaves_nothing_in_the_run_dir(
        tmp_path: Path) -> None:
    with run_dir_lock(tmp_path), run_dir_lock(tmp_path / "."):
        assert lock_path(tmp_path).is_file()
    assert list(tmp_path.iterdir()) == []
