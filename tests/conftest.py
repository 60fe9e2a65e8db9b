"""Shared fixtures: the bundled corpus and the tiny hand-made spec."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.corpus import Corpus, build_corpus

FIXTURES = Path(__file__).parent / "fixtures"
TINY_SPEC = FIXTURES / "tiny_spec"


@pytest.fixture(scope="session")
def corpus() -> Corpus:
    return build_corpus()


@pytest.fixture(scope="session")
def tiny_corpus() -> Corpus:
    return build_corpus(TINY_SPEC)


@pytest.fixture(scope="session")
def deterministic_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The full default matrix (the README's main job), run once per test session."""
    from simulator.runner.config import RunConfig
    from simulator.runner.matrix import run_matrix

    out = tmp_path_factory.mktemp("deterministic_run")
    summary = run_matrix(RunConfig(), out, progress=False)
    assert summary.total == summary.written == 4320
    return out
