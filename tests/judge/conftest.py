"""A small deterministic run (24 tasks, nine scenarios, both modes), made once per session."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def small_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from simulator.runner.config import RunConfig
    from simulator.runner.matrix import run_matrix

    out = tmp_path_factory.mktemp("judge_small_run")
    summary = run_matrix(RunConfig(tasks=24), out, progress=False)
    assert summary.written == 9 * 2 * 24
    return out
