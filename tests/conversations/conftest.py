"""A cases run made once per session: 16 cases, four scenarios, both modes, two arms."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.runner.config import RunConfig
from tests.live.conftest import canary_keys, fake  # noqa: F401  (the live tests' fixtures)

SCENARIOS = ("clean", "stale_index", "schema_drift", "wrong_session")


def cases_config(**fields: object) -> RunConfig:
    base: dict[str, object] = {"suite": "cases", "tasks": 16, "scenarios": SCENARIOS,
                               "arms": ("uncontrolled", "session_isolation")}
    return RunConfig(**{**base, **fields})  # type: ignore[arg-type]


@pytest.fixture(scope="session")
def cases_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from simulator.conversations.run import run_cases

    out = tmp_path_factory.mktemp("cases_run")
    summary = run_cases(cases_config(), out)
    assert summary.written == summary.total > 0
    return out


def kill_at_first_stored_position(argv: list[str], env: dict[str, str]) -> None:
    """Start ``layerrag run`` (``argv``) and SIGKILL it as soon as it says it stored the
    first turn position ("cases: ..." on stderr)."""
    import os
    import signal
    import subprocess

    proc = subprocess.Popen(argv, env=env, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    for line in proc.stderr:
        if line.startswith("cases: "):
            os.kill(proc.pid, signal.SIGKILL)
            break
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
