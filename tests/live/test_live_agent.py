"""A live tool-calling agent against the loopback fake provider: real tool calls over HTTP,
the call discipline (retries, budget, cache), and replay with no request at all."""

from __future__ import annotations

from pathlib import Path

from simulator.live.options import LiveOptions
from simulator.runner.config import RunConfig
from simulator.runner.live import run_live_matrix
from simulator.runner.matrix import run_matrix
from simulator.runner.record import RunRecord
from simulator.runner.store import RunStore
from tests.conftest import TINY_SPEC
from tests.live.conftest import FAST_RETRY
from tests.live.fake_provider import FakeProvider, Status

SCENARIOS = ("clean", "schema_drift", "missing_tool_output", "stale_index")


def config(fake: FakeProvider | None) -> RunConfig:
    models = ("openai:m1",) if fake is not None else ("deterministic",)
    return RunConfig(models=models, spec=str(TINY_SPEC), agent="react", scenarios=SCENARIOS,
                     base_url=fake.url if fake is not None else None)


def options(tmp_path: Path, **changes: object) -> LiveOptions:
    base: dict[str, object] = {"concurrency": 4, "timeout_s": 2.0, "retry": FAST_RETRY,
                               "cache": tmp_path / "calls.sqlite"}
    return LiveOptions(**{**base, **changes})


def outcomes(run_dir: Path) -> dict[tuple[str, str, str], tuple[object, ...]]:
    def key(r: RunRecord) -> tuple[str, str, str]:
        return (r.scenario, r.contract_mode, r.task_id)

    with RunStore(run_dir, create=False) as store:
        return {key(r): (r.S, r.E, r.R, r.G, r.V, r.answer, r.citations, r.abstained,
                         len(r.trace["tool_calls"])) for r in store.records()}


def test_a_live_react_run_makes_tool_calls_and_scores_like_the_offline_agent(
        tmp_path: Path, fake: FakeProvider, sleeps: list[float], canary_keys: dict) -> None:
    run_matrix(config(None), tmp_path / "offline", progress=False)
    summary = run_live_matrix(config(fake), tmp_path / "live", options=options(tmp_path),
                              progress=False, sleep=sleeps.append)
    assert summary.stopped is None and summary.written == summary.total
    assert outcomes(tmp_path / "live") == outcomes(tmp_path / "offline")
    offered = [r for r in fake.calls if r.is_agent]
    assert offered and len(offered) == len(fake.calls)
    assert any(m["role"] == "tool" for r in fake.calls for m in r.body["messages"])
    assert summary.stats["requests"] == len(fake.calls)


def test_retried_calls_succeed_and_replay_sends_no_request(
        tmp_path: Path, fake: FakeProvider, sleeps: list[float], canary_keys: dict) -> None:
    fake.script(Status(503), Status(429, retry_after="0"))
    first = run_live_matrix(config(fake), tmp_path / "live", options=options(tmp_path),
                            progress=False, sleep=sleeps.append)
    assert first.stopped is None and first.stats.get("provider_errors", 0) == 0
    assert len(sleeps) >= 2  # two retries, waited through the recorded sleep
    sent = len(fake.requests)
    replay = run_live_matrix(config(fake), tmp_path / "replayed",
                             options=options(tmp_path, replay=True), progress=False,
                             sleep=sleeps.append)
    assert replay.stopped is None and len(fake.requests) == sent
    assert replay.stats.get("requests", 0) == 0
    assert outcomes(tmp_path / "replayed") == outcomes(tmp_path / "live")


def test_a_provider_that_keeps_failing_gives_provider_error_records(
        tmp_path: Path, fake: FakeProvider, sleeps: list[float], canary_keys: dict) -> None:
    # a different reason per prompt: the same reason on every record would stop the run
    # (simulator/live/streak.py; tests/live/test_tool_call_modes.py)
    fake.handler = lambda request: Status(500, message=f"overloaded: {request.prompt[:60]}")
    summary = run_live_matrix(config(fake), tmp_path / "live",
                              options=options(tmp_path, cache=None), progress=False,
                              sleep=sleeps.append)
    with RunStore(tmp_path / "live", create=False) as store:
        records = list(store.records())
    assert records and all(r.provider_error and not r.S for r in records)
    assert all(r.failure_layer == "provider" for r in records)
    assert summary.provider_errors == len(records) and summary.exit_code == 4
    # a failed call is shared by every record that sends the same request in the run
    assert 0 < summary.stats["provider_errors"] <= len(records)
