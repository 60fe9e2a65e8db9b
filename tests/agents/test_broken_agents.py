"""A broken agent is never safe: each way an agent under test can break is either refused
by the preflight in one line (exit 2, nothing written) or a finished run of agent errors,
none safe, exit 5. Never a traceback, never an abstention, never S."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from simulator.runner.store import RunStore

ROOT = Path(__file__).resolve().parents[2]
AGENTS = "tests.agents.broken_agents"


def _run(agent: str, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "simulator.cli.main", "run", "--agent", f"{AGENTS}:{agent}",
         "--tasks", "2", "--scenarios", "clean,permission_denied", "--out", str(out),
         "--no-progress", "--record-timeout", "10", *extra],
        cwd=ROOT, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(("agent", "says"), [
    ("raises", "the probe record (clean scenario, first task) failed: the agent raised "
               "RuntimeError: my agent is broken"),
    ("returns_none", "the factory returned None, not a runnable graph"),
    ("returns_string", "the factory returned a str, not a runnable graph"),
    ("factory_raises", "the factory raised ValueError: no such index: my_vectors"),
    ("loops", "failed: the agent exceeded its step budget of 40; nothing was run"),
    ("sleeps", "failed: the agent exceeded the record time limit of 10 s; nothing was run"),
    ("calls_no_tool", "failed: the agent called none of the tools it was given; nothing"),
])
def test_an_agent_that_cannot_run_is_refused_in_one_line(tmp_path: Path, agent: str,
                                                          says: str) -> None:
    done = _run(agent, tmp_path / "r")
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"error: --agent {AGENTS}:{agent}: ") and says in line
    assert not (tmp_path / "r").exists()


def test_an_agent_that_breaks_after_the_probe_gives_agent_errors_and_exit_5(
        tmp_path: Path) -> None:
    done = _run("breaks_after_the_probe", tmp_path / "r")
    assert done.returncode == 5, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout.splitlines()[2] == (
        "**8 of 8 records are agent errors** (the agent under test broke; none counts as "
        "safe): the agent raised RuntimeError: my agent is broken")
    assert "8 of 8 records are agent errors (exit 5)" in done.stderr
    with RunStore(tmp_path / "r", create=False) as store:
        records = list(store.records())
    assert len(records) == 8
    assert all(r.agent_error and not r.S and not r.abstained and not r.safe_resolution
               for r in records)
    assert {r.failure_layer for r in records} == {"agent"}
    rerun = _run("breaks_after_the_probe", tmp_path / "r")  # resumes: nothing to add
    assert rerun.returncode == 5 and "0 records written" in rerun.stderr


def test_study_focused_refuses_a_factory_that_raises_in_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "simulator.cli.main", "study", "focused", "--agent",
         f"{AGENTS}:factory_raises", "--out", str(tmp_path / "s"), "--no-progress"],
        cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"error: --agent {AGENTS}:factory_raises: the factory raised ValueError: no such "
        "index: my_vectors"]


def test_the_readme_pytest_example_fails_in_one_line_for_a_crashing_agent(
        tmp_path: Path) -> None:
    (tmp_path / "test_mine.py").write_text(textwrap.dedent(f"""
        from {AGENTS} import breaks_after_the_probe, raises

        def test_crashing(layerrag):
            result = layerrag.evaluate(agent=raises, scenarios=["permission_denied"])
            assert result.rate("safe_resolution") == 1.0

        def test_crashing_after_the_probe(layerrag):
            result = layerrag.evaluate(agent=breaks_after_the_probe,
                                       scenarios=["permission_denied"], tasks=2)
            assert result.rate("safe_resolution") == 1.0
        """))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(tmp_path / "test_mine.py")], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 1, done.stdout
    assert "2 failed" in done.stdout
    body = done.stdout.split("= FAILURES =")[1].split("short test summary")[0]
    reasons = [line for line in body.splitlines() if line and not line.startswith("_")
               and not line.startswith("=")]
    assert reasons == [
        f"layerrag: --agent {AGENTS}:raises: the probe record (clean scenario, first task) "
        "failed: the agent raised RuntimeError: my agent is broken; nothing was run",
        "layerrag: rate('safe_resolution'): 4 of 4 records are agent errors, which measure "
        "nothing (first: permission_denied/repair task row 0: the agent raised RuntimeError: "
        "my agent is broken); fix the cause, or pass exclude_errors=True"], body


def test_a_rate_excluding_errors_says_what_is_left_and_lists_them() -> None:
    from simulator.errors import UsageError
    from simulator.testing import UnmeasuredError, evaluate
    from tests.agents.broken_agents import breaks_after_the_probe

    result = evaluate(breaks_after_the_probe, scenarios=["clean"], modes=["strict"], tasks=2)
    assert len(result.errors) == 2
    with pytest.raises(UnmeasuredError, match="2 of 2 records are agent errors"):
        result.rate("S")
    with pytest.raises(UsageError, match="once errors are excluded"):
        result.rate("S", exclude_errors=True)
