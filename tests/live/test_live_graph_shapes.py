"""The live call discipline lives on the model (issue 26): a hand-built ``StateGraph`` and
a plain Python loop, neither of which installs any middleware, against the loopback fake
provider. Replay sends no request; ``--max-calls`` stops the run with exit 3."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.runner.store import RunStore
from tests.conftest import TINY_SPEC
from tests.live.fake_provider import FakeProvider

SHAPES = ("tests.agents.graph_shapes:hand_built", "tests.agents.graph_shapes:plain_loop")


def run_cli(fake: FakeProvider, out: Path, agent: str, *extra: str) -> int:
    return main(["run", "--out", str(out), "--spec", str(TINY_SPEC), "--model", "openai:m1",
                 "--base-url", fake.url, "--timeout", "2", "--backoff", "0", "--no-progress",
                 "--agent", agent, "--scenarios", "clean,stale_index", "--format", "none",
                 *extra])


def tool_calls(run_dir: Path) -> list[int]:
    with RunStore(run_dir, create=False) as store:
        return [len(r.trace["tool_calls"]) for r in store.records()]


@pytest.mark.parametrize("agent", SHAPES)
def test_replay_of_a_custom_graph_sends_no_request(
        tmp_path: Path, fake: FakeProvider, agent: str, canary_keys: dict,
        capsys: pytest.CaptureFixture[str]) -> None:
    cache = str(tmp_path / "calls.sqlite")
    assert run_cli(fake, tmp_path / "live", agent, "--cache", cache) == 0
    sent = [r for r in fake.requests if r.is_agent]
    assert sent and all(n > 0 for n in tool_calls(tmp_path / "live"))
    before = len(fake.requests)
    capsys.readouterr()
    assert run_cli(fake, tmp_path / "again", agent, "--cache", cache, "--replay") == 0
    assert len(fake.requests) == before
    assert " 0 requests," in capsys.readouterr().err


@pytest.mark.parametrize("agent", SHAPES)
def test_max_calls_stops_a_custom_graph_with_exit_3(
        tmp_path: Path, fake: FakeProvider, agent: str, canary_keys: dict,
        capsys: pytest.CaptureFixture[str]) -> None:
    code = run_cli(fake, tmp_path / "live", agent, "--cache", "off", "--max-calls", "2",
                   "--concurrency", "1")
    assert code == 3
    assert len(fake.requests) <= 2
    assert "--max-calls" in capsys.readouterr().err
