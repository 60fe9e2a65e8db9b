"""``layerrag run`` with live models, and the promise that API keys never leak.

Keys are canaries: after runs that succeed, fail and retry, no byte of a key may be found
in the run directory, the call cache, the logs, the console or the report.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from simulator.cli.main import main
from tests.conftest import TINY_SPEC
from tests.live.conftest import CANARY
from tests.live.fake_provider import FakeProvider, Malformed, Status


def run_cli(fake: FakeProvider, out: Path, *extra: str) -> int:
    return main(["run", "--out", str(out), "--spec", str(TINY_SPEC), "--model", "openai:m1",
                 "--base-url", fake.url, "--timeout", "0.5", "--backoff", "0", "--no-progress",
                 *extra])


def test_the_cli_runs_a_live_matrix_and_prints_its_report(
        tmp_path: Path, fake: FakeProvider, canary_keys: dict,
        capsys: pytest.CaptureFixture[str]) -> None:
    code = run_cli(fake, tmp_path / "run", "--scenarios", "clean", "--cache",
                   str(tmp_path / "calls.sqlite"), "--concurrency", "4")
    out, err = capsys.readouterr()
    assert code == 0
    assert "24 records written" in err and "cache hits" in err
    assert "clean" in out


def test_the_cli_exits_3_when_the_budget_is_spent_and_says_how_to_resume(
        tmp_path: Path, fake: FakeProvider, canary_keys: dict,
        capsys: pytest.CaptureFixture[str]) -> None:
    code = run_cli(fake, tmp_path / "run", "--scenarios", "clean", "--cache", "off",
                   "--max-calls", "4", "--concurrency", "1")
    err = capsys.readouterr().err
    assert code == 3
    assert "call budget spent (4 of 4 calls)" in err and "--max-calls" in err


def test_bad_live_options_are_one_line_usage_errors(
        tmp_path: Path, fake: FakeProvider, canary_keys: dict,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(fake, tmp_path / "a", "--concurrency", "0") == 2
    assert run_cli(fake, tmp_path / "b", "--price", "gpt") == 2
    assert run_cli(fake, tmp_path / "c", "--max-output-tokens", "0") == 2
    errors = capsys.readouterr().err.strip().splitlines()
    assert len(errors) == 3 and all(line.startswith("error: --") for line in errors)


def test_generation_settings_are_part_of_the_run_so_a_change_is_not_mixed_in(
        tmp_path: Path, fake: FakeProvider, canary_keys: dict,
        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert run_cli(fake, out, "--scenarios", "clean", "--tasks", "1", "--cache", "off",
                   "--format", "none") == 0
    assert run_cli(fake, out, "--scenarios", "clean", "--tasks", "1", "--cache", "off",
                   "--format", "none", "--max-output-tokens", "50") == 2
    assert "generation differ" in capsys.readouterr().err


def test_prices_turn_token_usage_into_a_cost_per_record(
        tmp_path: Path, fake: FakeProvider, canary_keys: dict) -> None:
    from simulator.runner.store import RunStore

    assert run_cli(fake, tmp_path / "run", "--scenarios", "clean", "--modes", "strict",
                   "--tasks", "2", "--cache", "off", "--price", "openai:m1=1.5,6",
                   "--format", "none") == 0
    with RunStore(tmp_path / "run", create=False) as store:
        costs = {r.cost_usd for r in store.records()}
    assert costs == {(100 * 1.5 + 20 * 6) / 1e6}


def _files_under(*roots: Path) -> list[Path]:
    return [p for root in roots for p in root.rglob("*") if p.is_file()]


def test_api_keys_never_reach_the_store_the_cache_the_logs_or_the_report(
        tmp_path: Path, canary_keys: dict, capsys: pytest.CaptureFixture[str],
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    echo = f"Incorrect API key provided: {CANARY}"

    def script(request: object) -> Status | Malformed | None:
        script.n += 1  # type: ignore[attr-defined]
        n = script.n  # type: ignore[attr-defined]
        return (Status(500, message=echo) if n % 3 == 0 else
                Status(429, retry_after_ms="1", message=echo) if n % 5 == 0 else
                Malformed(echo) if n % 7 == 0 else None)

    script.n = 0  # type: ignore[attr-defined]
    with FakeProvider(handler=script) as fake:
        cache = tmp_path / "cache" / "calls.sqlite"
        code = run_cli(fake, tmp_path / "run", "--cache", str(cache), "--format", "md")
        assert all(r.headers["authorization"] == f"Bearer {CANARY}" for r in fake.requests)
    out, err = capsys.readouterr()
    assert code == 4  # the run ended with provider errors (the scripted 500s)
    leaks = [p for p in _files_under(tmp_path / "run", tmp_path / "cache")
             if CANARY.encode() in p.read_bytes()]
    assert leaks == []
    assert CANARY not in out and CANARY not in err and CANARY not in caplog.text
