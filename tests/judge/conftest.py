"""Runs to judge, made once per session (24 and 4 tasks, nine scenarios, both modes), a
loopback fake provider, and a private call cache with a canary key for LLM-judge tests."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.live.fake_provider import FakeProvider


@pytest.fixture(scope="session")
def small_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from simulator.runner.config import RunConfig
    from simulator.runner.matrix import run_matrix

    out = tmp_path_factory.mktemp("judge_small_run")
    summary = run_matrix(RunConfig(tasks=24), out, progress=False)
    assert summary.written == 9 * 2 * 24
    return out


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from simulator.runner.config import RunConfig
    from simulator.runner.matrix import run_matrix

    out = tmp_path_factory.mktemp("judge_tiny_run")
    assert run_matrix(RunConfig(tasks=4), out, progress=False).written == 9 * 2 * 4
    return out


@pytest.fixture()
def run(tiny_run: Path, tmp_path: Path) -> Path:
    """A fresh copy: judgments are written into the run store."""
    return Path(shutil.copytree(tiny_run, tmp_path / "run"))


@pytest.fixture()
def fake() -> Iterator[FakeProvider]:
    with FakeProvider() as server:
        yield server


@pytest.fixture()
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-judge-canary-41c9")
