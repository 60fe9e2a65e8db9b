"""A react run shared by the agent tests: every scenario, both modes, 48 tasks."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.corpus import Corpus


@pytest.fixture(scope="session")
def react_run(tmp_path_factory: pytest.TempPathFactory, corpus: Corpus) -> Path:
    from simulator.runner.config import RunConfig
    from simulator.runner.matrix import run_matrix

    out = tmp_path_factory.mktemp("react_run")
    # Every fifth task: all eight domains, all three question variants.
    config = RunConfig(agent="react", task_rows=tuple(range(0, 240, 5)))
    summary = run_matrix(config, out, progress=False, corpus=corpus)
    assert summary.written == 48 * 9 * 2
    return out
