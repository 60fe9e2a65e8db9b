"""Long commands say what is starting before they work, and off a terminal say they are
still working every 30 s: ``credit``, ``study focused`` and a piped ``run``.

Timing itself is a benchmark's job (benchmarks/startup.py measures time to first output);
these tests pin the order (the start line comes first, once the input is checked, so a
refusal stays one line) and the cadence of the status thread, with a short interval
instead of 30 s. A piped ``run`` prints its start line once its options are checked (about
0.5 s after it starts on this machine), so a refusal stays one line.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from simulator.cli.status import STATUS_EVERY_S, heartbeat
from tests.conftest import TINY_SPEC

ROOT = Path(__file__).resolve().parents[2]


def first_stderr_line(*argv: str) -> tuple[str, subprocess.CompletedProcess[str]]:
    result = subprocess.run([sys.executable, "-m", "simulator.cli.main", *argv], cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                            text=True, timeout=300)
    return (result.stderr.splitlines() or [""])[0], result


@pytest.mark.parametrize(("argv", "start"), [
    (["credit", "--policy", "schema_repair", "--tasks", "2"],
     "layerrag credit: crediting schema_repair against uncontrolled"),
    (["study", "focused", "--out", "{tmp}/study"], "layerrag study: focused study ->"),
    (["run", "--out", "{tmp}/run", "--tasks", "2", "--scenarios", "clean", "--format", "none"],
     "layerrag run: 1 model(s) x 1 scenario(s) x 2 mode(s) x 1 arm(s) x 2 task(s) ->"),
], ids=["credit", "study", "run"])
def test_a_piped_long_command_prints_its_start_line_first(
        tmp_path: Path, argv: list[str], start: str) -> None:
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    first, result = first_stderr_line(*argv, "--spec", str(TINY_SPEC))
    assert result.returncode == 0, result.stderr
    assert first.startswith(start), result.stderr


def test_no_progress_keeps_a_command_quiet(tmp_path: Path) -> None:
    first, result = first_stderr_line("credit", "--policy", "schema_repair", "--tasks", "2",
                                      "--spec", str(TINY_SPEC), "--no-progress")
    assert result.returncode == 0 and "layerrag credit:" not in result.stderr


def test_off_a_terminal_a_status_line_comes_every_interval(
        capsys: pytest.CaptureFixture[str]) -> None:
    with heartbeat("credit", every=0.05, terminal=False):
        time.sleep(0.32)
    lines = capsys.readouterr().err.splitlines()
    assert 4 <= len(lines) <= 7
    assert all(line.startswith("layerrag credit: still working, ") for line in lines)


def test_on_a_terminal_the_bar_speaks_and_the_status_thread_is_silent(
        capsys: pytest.CaptureFixture[str]) -> None:
    with heartbeat("run", every=0.02, terminal=True):
        time.sleep(0.1)
    assert capsys.readouterr().err == ""


def test_the_interval_is_thirty_seconds() -> None:
    assert STATUS_EVERY_S == 30.0
