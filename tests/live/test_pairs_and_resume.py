"""Failures that do not distort results: pairs share an outcome, and resume retries them.

A strict and a repair record that send the same prompt must fail or succeed together, or
a failure on one side reads as a difference between the modes. A run that ends with
provider errors exits 4 and re-running it sends only the failed calls again; an
unreachable or wrong server stops before anything is written.
"""

from __future__ import annotations

import hashlib
import random
import socket
from collections import defaultdict
from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.runner.live import run_live_matrix
from simulator.runner.record import RunRecord
from simulator.runner.store import RunStore
from tests.conftest import TINY_SPEC
from tests.live.fake_provider import FakeProvider, Request, Status
from tests.live.test_live_run import live_config, live_options


def stored(run_dir: Path) -> list[RunRecord]:
    with RunStore(run_dir, create=False) as store:
        return list(store.records())


def faulty(seed: int, rate: float):
    """A handler failing each record request with HTTP 500 at ``rate`` (seeded)."""
    rng = random.Random(seed)

    def handler(request: Request) -> Status | None:
        return Status(500) if not request.is_preflight and rng.random() < rate else None
    return handler


def failing_prompts(share: float):
    """A handler failing every request of about ``share`` of the prompts with HTTP 500.

    Chosen by the prompt's text, not by the order requests arrive in (which concurrency
    changes from run to run), so the same prompts fail on every attempt of every run.
    """
    def handler(request: Request) -> Status | None:
        digest = hashlib.sha256(request.prompt.encode()).digest()
        return Status(500) if not request.is_preflight and digest[0] < share * 256 else None
    return handler


def pairs(records: list[RunRecord]) -> dict[tuple[str, str | None], set[bool]]:
    """provider_error values of the records sharing a (model, prompt hash)."""
    by_prompt: dict[tuple[str, str | None], set[bool]] = defaultdict(set)
    for r in records:
        if r.prompt_hash is not None:
            by_prompt[(r.model, r.prompt_hash)].add(r.provider_error)
    return by_prompt


@pytest.mark.parametrize("cache", [True, False], ids=["cache", "no-cache"])
def test_records_sending_the_same_prompt_share_a_provider_error(
        tmp_path: Path, sleeps: list[float], canary_keys: dict, cache: bool) -> None:
    with FakeProvider(handler=faulty(seed=3, rate=0.6)) as fake:
        config = live_config(fake, scenarios=("clean", "conflicting_evidence"))
        summary = run_live_matrix(config, tmp_path / "run", options=live_options(
            tmp_path, cache=tmp_path / "calls.sqlite" if cache else None), progress=False,
            sleep=sleeps.append)
    records = stored(tmp_path / "run")
    shared = {k: v for k, v in pairs(records).items()
              if sum(r.prompt_hash == k[1] for r in records) > 1}
    assert summary.provider_errors > 0 and shared  # the test saw failures and pairs
    assert all(len(values) == 1 for values in shared.values()), shared
    by_cell = {(r.scenario, r.arm, r.task_row, r.contract_mode): r for r in records}
    strict_repair = [(by_cell[(s, a, t, "strict")], by_cell[(s, a, t, "repair")])
                     for (s, a, t, m) in by_cell if m == "strict"]
    same_prompt = [(s, r) for s, r in strict_repair if s.prompt_hash == r.prompt_hash]
    assert same_prompt and all(s.provider_error == r.provider_error for s, r in same_prompt)


def test_a_rerun_retries_only_the_failed_calls_and_exits_0_once_they_succeed(
        tmp_path: Path, sleeps: list[float], canary_keys: dict,
        capsys: pytest.CaptureFixture[str]) -> None:
    out, cache = tmp_path / "run", str(tmp_path / "calls.sqlite")
    argv = ["run", "--out", str(out), "--spec", str(TINY_SPEC), "--model", "openai:m1",
            "--timeout", "2", "--backoff", "0", "--no-progress", "--cache", cache,
            "--scenarios", "clean,conflicting_evidence", "--format", "none"]
    with FakeProvider(handler=failing_prompts(0.3)) as fake:
        assert main([*argv, "--base-url", fake.url]) == 4
        failed = [r for r in stored(out) if r.provider_error]
        err = capsys.readouterr().err
        assert f"{len(failed)} records are provider errors" in err and "re-run" in err
        fake.handler = None  # the provider recovers
        before = len(fake.calls)
        assert main([*argv, "--base-url", fake.url, "--keep-provider-errors"]) == 4
        assert len(fake.calls) == before  # kept: nothing is sent
        assert main([*argv, "--base-url", fake.url]) == 0
        resent = fake.calls[before:]
    distinct = {(r.model, r.prompt_hash) for r in failed}
    assert len(resent) == len(distinct) > 0  # one call per failed prompt, nothing else
    after = stored(out)
    assert len(after) == 2 * 2 * 12 and not any(r.provider_error for r in after)


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_an_unreachable_base_url_is_one_line_exit_2_and_no_run_directory(
        tmp_path: Path, canary_keys: dict, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    code = main(["run", "--out", str(out), "--spec", str(TINY_SPEC), "--model", "openai:m1",
                 "--base-url", f"http://127.0.0.1:{_closed_port()}/v1", "--timeout", "1",
                 "--backoff", "0", "--attempts", "1", "--no-progress"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and err[0].startswith("error: preflight: openai:m1")
    assert "did not answer" in err[0] and not out.exists()


def test_a_wrong_model_or_path_is_refused_by_the_preflight(
        tmp_path: Path, canary_keys: dict, capsys: pytest.CaptureFixture[str]) -> None:
    with FakeProvider(handler=lambda request: Status(404, message="model not found")) as fake:
        code = main(["run", "--out", str(tmp_path / "run"), "--spec", str(TINY_SPEC),
                     "--model", "openai:nope", "--base-url", fake.url, "--no-progress"])
        assert len(fake.requests) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "refused the key, the account or the model" in err[0]
    assert not (tmp_path / "run").exists()
