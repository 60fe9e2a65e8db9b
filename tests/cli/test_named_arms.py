"""Arms named on the command line keep their meaning: later commands read it from the run.

Every command runs in its own process, as a user's would: an arm registered by ``run``
must not be found in a registry that happens to still hold it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.runner.store import RunStore
from tests.conftest import TINY_SPEC

ROOT = Path(__file__).resolve().parents[2]
ARMS = "uncontrolled,mine=bounded_retry+session_isolation"
SMALL = ["--spec", str(TINY_SPEC), "--tasks", "3", "--modes", "strict", "--no-progress"]

NO_RERUN = """
import sys
import simulator.runner.matrix as matrix

def refuse(*args, **kwargs):
    raise SystemExit("run_matrix was called: the command re-ran records")

matrix.run_matrix = refuse
from simulator.cli.main import main
sys.exit(main(sys.argv[1:]))
"""
"""``layerrag`` with the matrix runner replaced by a refusal: any re-run fails the test."""


def layerrag(*argv: str, rerun_allowed: bool = True) -> subprocess.CompletedProcess[str]:
    program = (["-m", "simulator.cli.main"] if rerun_allowed else ["-c", NO_RERUN])
    return subprocess.run([sys.executable, *program, *argv], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


@pytest.fixture(scope="module")
def arms_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("named") / "arms"
    result = layerrag("run", "--out", str(out), "--arms", ARMS, "--format", "none", *SMALL)
    assert result.returncode == 0, result.stderr
    return out


def record_count(run_dir: Path) -> int:
    with RunStore(run_dir, create=False) as store:
        return sum(1 for _ in store.records())


def test_credit_resolves_a_named_arm_from_the_run_and_reruns_nothing(arms_run: Path) -> None:
    before = record_count(arms_run)
    result = layerrag("credit", "--policy", "bounded_retry", "--run", str(arms_run),
                      "--arm", "mine", "--json", "--no-progress", rerun_allowed=False)
    assert result.returncode == 0, result.stderr
    credit = json.loads(result.stdout)
    assert credit["policy"] == "bounded_retry"
    assert record_count(arms_run) == before
    assert "the whole arm's" in result.stderr  # mine holds session_isolation too


def test_resuming_names_the_arm_without_its_definition(arms_run: Path) -> None:
    result = layerrag("run", "--out", str(arms_run), "--arms", "uncontrolled,mine",
                      "--format", "none", *SMALL)
    assert result.returncode == 0, result.stderr
    assert " 0 records written" in result.stderr


def test_study_arms_says_what_each_arm_is(arms_run: Path) -> None:
    result = layerrag("study", "arms", str(arms_run))
    assert result.returncode == 0, result.stderr
    assert "`mine` = bounded_retry + session_isolation" in result.stdout


def test_credit_refuses_an_arm_the_run_does_not_hold(arms_run: Path) -> None:
    result = layerrag("credit", "--policy", "bounded_retry", "--run", str(arms_run),
                      "--arm", "yours", rerun_allowed=False)
    assert result.returncode == 2
    assert "holds arms uncontrolled, mine, not 'yours'" in result.stderr


def test_credit_refuses_an_arm_without_the_policy(arms_run: Path) -> None:
    result = layerrag("credit", "--policy", "schema_repair", "--run", str(arms_run),
                      "--arm", "mine", rerun_allowed=False)
    assert result.returncode == 2
    assert "without 'schema_repair'" in result.stderr
