"""A user middleware with only sync hooks, and one with only async hooks, against the
loopback provider: the records are those of the offline run, and the call discipline
(cache, replay) holds on the synchronous path too."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.runner.config import RunConfig
from simulator.runner.live import run_live_matrix
from simulator.runner.matrix import run_matrix
from tests.conftest import TINY_SPEC
from tests.live.fake_provider import FakeProvider
from tests.live.test_live_agent import SCENARIOS, options, outcomes


def _config(agent: str, fake: FakeProvider | None) -> RunConfig:
    return RunConfig(models=("openai:m1",) if fake else ("deterministic",),
                     spec=str(TINY_SPEC), agent=f"tests.agents.broken_agents:{agent}",
                     scenarios=SCENARIOS, base_url=fake.url if fake else None)


@pytest.mark.parametrize("agent", ["sync_only", "async_only"])
def test_a_one_hook_middleware_runs_live_with_the_offline_records(
        tmp_path: Path, fake: FakeProvider, sleeps: list[float], canary_keys: dict,
        agent: str) -> None:
    run_matrix(_config(agent, None), tmp_path / "offline", progress=False)
    live = run_live_matrix(_config(agent, fake), tmp_path / "live", options=options(tmp_path),
                           progress=False, sleep=sleeps.append)
    assert live.stopped is None and live.written == live.total and live.exit_code == 0
    assert outcomes(tmp_path / "live") == outcomes(tmp_path / "offline")
    assert live.stats["requests"] == len(fake.calls) > 0
    sent = len(fake.requests)
    replay = run_live_matrix(_config(agent, fake), tmp_path / "replayed",
                             options=options(tmp_path, replay=True), progress=False,
                             sleep=sleeps.append)
    assert replay.stopped is None and len(fake.requests) == sent
    assert outcomes(tmp_path / "replayed") == outcomes(tmp_path / "live")
