"""Fixtures for live-model tests: a loopback fake provider, canary keys, a recorded sleep.

Everything is offline: the fake provider is a real HTTP server on 127.0.0.1 (port 0),
started and stopped by each test that asks for it. Keys are canaries, so a test can assert
that no key value reaches a store, a cache, a log or a report.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from simulator.corpus import Corpus, build_corpus
from simulator.live.policy import RetryPolicy
from simulator.live.services import LiveServices
from tests.conftest import TINY_SPEC
from tests.live.fake_provider import FakeProvider

CANARY = "sk-canary-7f3a9d1e5b"
CANARY_KEYS = {"OPENAI_API_KEY": CANARY, "ANTHROPIC_API_KEY": CANARY + "-ant",
               "GOOGLE_API_KEY": CANARY + "-goog"}
FAST_RETRY = RetryPolicy(attempts=3, backoff_s=0.01, max_wait_s=5.0)


@pytest.fixture()
def fake() -> Iterator[FakeProvider]:
    with FakeProvider() as server:
        yield server


@pytest.fixture()
def canary_keys(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    for name, value in CANARY_KEYS.items():
        monkeypatch.setenv(name, value)
    return CANARY_KEYS


@pytest.fixture()
def no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (*CANARY_KEYS, "GEMINI_API_KEY"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(autouse=True)
def private_cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No test may touch the user's real call cache."""
    home = tmp_path / "xdg-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    return home


@pytest.fixture()
def sleeps() -> list[float]:
    """Waits requested between attempts; tests pass ``sleeps.append`` as the sleep."""
    return []


@pytest.fixture()
def services(sleeps: list[float]) -> LiveServices:
    return LiveServices(retry=FAST_RETRY, timeout_s=0.5, sleep=sleeps.append)


@pytest.fixture(scope="session")
def tiny() -> Corpus:
    return build_corpus(TINY_SPEC)
