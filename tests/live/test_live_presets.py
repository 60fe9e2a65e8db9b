"""``study focused`` and ``credit`` take the live option group of ``run``, and a provider
error is never safe, answered or abstained in their tables (issue 14, item 6).

Every server here is the loopback fake provider. The one that "always fails" still answers
the run's preflight request (a fixed prompt about a "preflight marker policy"), so what is
tested is the records, not the preflight's refusal to start (tests/live/test_live_run.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.runner.store import RunStore
from simulator.vocabulary import SOURCE_PRIORITY_INSTRUCTIONS
from tests.conftest import TINY_SPEC
from tests.live.fake_provider import Answer, FakeProvider, Request, Status

PREFLIGHT_ANSWER = {"answer": "30 days", "citations": ["preflight-1"], "abstain": False,
                    "reason": None}


def failing_records(request: Request) -> Answer | Status:
    """A 500 on every record's request; the preflight alone is answered.

    The reason differs per prompt: one reason on every record is a refusing server, which
    stops the run (simulator/live/streak.py), and these tests want the whole table."""
    if "preflight marker policy" in request.prompt:
        return Answer(PREFLIGHT_ANSWER)
    return Status(500, message=f"overloaded: {request.prompt[:60]}")


def study(fake: FakeProvider, out: Path, *extra: str) -> int:
    return main(["study", "focused", "--out", str(out), "--spec", str(TINY_SPEC),
                 "--model", "openai:m1", "--base-url", fake.url, "--timeout", "2",
                 "--backoff", "0", "--cache", "off", "--no-progress", *extra])


def test_a_study_against_a_failing_server_counts_every_prompted_record_as_a_provider_error(
        tmp_path: Path, canary_keys: dict, capsys: pytest.CaptureFixture[str]) -> None:
    with FakeProvider(handler=failing_records) as fake:
        code = study(fake, tmp_path / "study", "--attempts", "1", "--format", "json")
    out = capsys.readouterr().out
    assert code != 2, "the records ran"
    with RunStore(tmp_path / "study", create=False) as store:
        records = list(store.records())
    prompted = [r for r in records if r.prompt_hash is not None]
    assert prompted and all(r.provider_error for r in prompted)
    assert not any(r.safe_resolution or r.abstained or r.S for r in prompted)
    assert {r.failure_layer for r in prompted} == {"provider"}
    body = json.loads(out)
    for arm in body["arms"]:
        mine = [r for r in prompted if r.arm == arm["arm"]]
        unprompted_safe = sum(r.safe_resolution for r in records
                              if r.arm == arm["arm"] and r.prompt_hash is None)
        assert arm["provider_errors"] == len(mine)
        assert arm["answerable_successes"] == 0 and arm["wrong_answers"] == 0
        assert arm["unsafe_safe"] == unprompted_safe  # the pipeline's own stops only
    assert body["controlled_is_safe"] is False


def test_the_study_table_shows_provider_errors_in_their_own_column(
        tmp_path: Path, canary_keys: dict, capsys: pytest.CaptureFixture[str]) -> None:
    with FakeProvider(handler=failing_records) as fake:
        code = study(fake, tmp_path / "study", "--attempts", "1")
    out, err = capsys.readouterr()
    assert code != 0 and "records are provider errors" in err  # as run says it
    assert "| provider errors | agent errors | unparseable |" in out
    row = next(line for line in out.splitlines() if line.startswith("| uncontrolled |"))
    assert int(row.split(" | ")[-3]) > 0
    assert "provider errors" in next(line for line in out.splitlines()
                                     if line.startswith("| stale_index |"))


def test_study_focused_takes_the_live_options_of_run(
        tmp_path: Path, fake: FakeProvider, canary_keys: dict,
        capsys: pytest.CaptureFixture[str]) -> None:
    code = study(fake, tmp_path / "study", "--structured-output", "json_object",
                 "--concurrency", "2", "--max-calls", "500")
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "# Focused study" in out and "requests" in err
    records = [r for r in fake.requests if "preflight marker policy" not in r.prompt]
    assert records and all(r.body["response_format"]["type"] == "json_object"
                           for r in records)
    assert fake.max_active <= 2


def test_a_study_out_of_budget_stops_cleanly_and_says_how_to_resume(
        tmp_path: Path, fake: FakeProvider, canary_keys: dict,
        capsys: pytest.CaptureFixture[str]) -> None:
    code = study(fake, tmp_path / "study", "--max-calls", "3", "--concurrency", "1")
    out, err = capsys.readouterr()
    assert code == 3 and out == ""
    assert "stopped:" in err and "--max-calls" in err


def test_a_live_option_for_a_deterministic_study_is_one_line_and_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["study", "focused", "--out", str(tmp_path / "s"), "--spec", str(TINY_SPEC),
                 "--concurrency", "2", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "--concurrency applies to live models" in err


def test_credit_takes_the_live_options_and_shows_provider_errors(
        tmp_path: Path, canary_keys: dict, capsys: pytest.CaptureFixture[str]) -> None:
    with FakeProvider(handler=failing_records) as fake:
        code = main(["credit", "--policy", "freshness_check", "--model", "openai:m1",
                     "--base-url", fake.url, "--spec", str(TINY_SPEC), "--tasks", "3",
                     "--structured-output", "json_object", "--concurrency", "2",
                     "--attempts", "1", "--backoff", "0", "--timeout", "2", "--cache", "off",
                     "--replicates", "50", "--no-progress", "--run", str(tmp_path / "c")])
    out = capsys.readouterr().out
    assert code != 2
    assert "| provider errors | agent errors | unparseable |" in out
    clean = next(line for line in out.splitlines() if line.startswith("| clean |"))
    assert clean.split(" | ")[-3] == "6"  # 3 tasks x 2 arms, every call failed
    assert "neither S nor safe" in out


def test_study_focused_sends_the_source_priority_instruction(
        tmp_path: Path, fake: FakeProvider, canary_keys: dict,
        capsys: pytest.CaptureFixture[str]) -> None:
    code = study(fake, tmp_path / "study", "--source-priority", "soft")
    assert code == 0, capsys.readouterr().err
    records = [r for r in fake.calls if "preflight marker policy" not in r.prompt]
    assert records and all(SOURCE_PRIORITY_INSTRUCTIONS["soft"] in r.prompt for r in records)
    with RunStore(tmp_path / "study", create=False) as store:
        assert (store.manifest() or {})["config"]["source_priority"] == "soft"


def test_credit_sends_the_source_priority_instruction_and_checks_a_read_run(
        tmp_path: Path, fake: FakeProvider, canary_keys: dict,
        capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["credit", "--policy", "evidence_integrity", "--model", "openai:m1",
            "--base-url", fake.url, "--spec", str(TINY_SPEC), "--tasks", "2",
            "--timeout", "2", "--backoff", "0", "--cache", "off", "--replicates", "50",
            "--no-progress", "--run", str(tmp_path / "c")]
    assert main([*argv, "--source-priority", "strict"]) == 0, capsys.readouterr().err
    records = [r for r in fake.calls if "preflight marker policy" not in r.prompt]
    assert records and all(SOURCE_PRIORITY_INSTRUCTIONS["strict"] in r.prompt
                           for r in records)
    capsys.readouterr()
    assert main([*argv, "--source-priority", "soft"]) == 2  # the run read is strict's
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--source-priority strict, not soft" in err


@pytest.mark.parametrize("option", [["--source-priority", "strict"],
                                    ["--base-url", "http://127.0.0.1:9/v1"]])
def test_a_chat_only_option_for_a_deterministic_study_is_one_line_and_exit_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], option: list[str]) -> None:
    code = main(["study", "focused", "--out", str(tmp_path / "s"), "--spec", str(TINY_SPEC),
                 "--no-progress", *option])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "deterministic reader" in err
    assert not (tmp_path / "s").exists()
