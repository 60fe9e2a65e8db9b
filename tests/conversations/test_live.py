"""The cases suite with a live model, against the loopback fake provider: each turn's
prompt carries the thread before it, the call discipline applies (cache, budget), and a
budget stop keeps every finished turn and resumes without repeating one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.runner.store import RunStore
from tests.conversations.conftest import kill_at_first_stored_position
from tests.live.fake_provider import FakeProvider


def run_cli(fake: FakeProvider, out: Path, *extra: str) -> int:
    return main(["run", "--suite", "cases", "--out", str(out), "--model", "openai:m1",
                 "--base-url", fake.url, "--timeout", "2", "--backoff", "0", "--no-progress",
                 "--tasks", "3", "--scenarios", "clean,wrong_session", "--modes", "strict",
                 "--format", "none", *extra])


def test_a_live_conversation_carries_its_history_into_each_prompt(
        tmp_path: Path, fake: FakeProvider, canary_keys: dict,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli(fake, tmp_path / "run", "--cache", "off") == 0
    assert "turns written, 0 already done" in capsys.readouterr().err
    with RunStore(tmp_path / "run", create=False) as store:
        records = [r for r in store.records() if r.case is not None]
        # the method the preflight fixed is recorded, so a resume reuses it
        assert (store.manifest() or {}).get("structured_output") == {"openai:m1": "json_schema"}
    prompts = [c.prompt for c in fake.calls if not c.is_preflight]
    clean = [r for r in records if r.scenario == "clean" and r.case and r.case.turn >= 2
             and r.prompt_hash is not None]  # a clarify turn asks without a prompt
    assert clean
    for r in clean:
        assert r.case is not None
        earlier = [user for user, _ in r.case.history]
        assert any(all(u in p for u in earlier) and r.case.message in p for p in prompts), \
            r.case.message
    assert all(canary_keys["OPENAI_API_KEY"] not in p for p in prompts)


def test_a_budget_stop_keeps_finished_turns_and_resumes_without_repeating_one(
        tmp_path: Path, fake: FakeProvider, canary_keys: dict,
        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert run_cli(fake, out, "--cache", "off", "--max-calls", "8") == 3
    assert "re-run the same command to resume" in capsys.readouterr().err
    with RunStore(out, create=False) as store:
        first = {r.key.as_str(): r for r in store.records()}
    assert first
    assert run_cli(fake, out, "--cache", "off", "--max-calls", "1000") == 0
    summary = capsys.readouterr().err
    match = re.search(r"(\d+) turns written, (\d+) already done, (\d+) in the suite", summary)
    assert match is not None, summary
    written, done, total = map(int, match.groups())
    assert done == len(first) and written + done == total and written > 0
    with RunStore(out, create=False) as store:
        records = list(store.records())
    keys = [r.key.as_str() for r in records]
    assert len(keys) == len(set(keys)) == total
    again = {r.key.as_str(): r for r in records}
    assert all(again[k].answer == first[k].answer for k in first)


@pytest.mark.slow
def test_a_live_run_killed_with_sigkill_resumes_without_losing_or_duplicating_a_turn(
        tmp_path: Path, canary_keys: dict) -> None:
    import os
    import subprocess
    import sys

    with FakeProvider(latency=0.01) as server:
        argv = [sys.executable, "-m", "simulator.cli.main", "run", "--suite", "cases",
                "--model", "openai:m1", "--base-url", server.url, "--timeout", "5",
                "--backoff", "0", "--cache", "off", "--tasks", "4", "--scenarios",
                "clean,wrong_session", "--modes", "strict", "--format", "none",
                "--out", str(tmp_path / "run")]
        env = {**os.environ, "PYTHONPATH": str(Path.cwd())}
        kill_at_first_stored_position(argv, env)
        with RunStore(tmp_path / "run", create=False) as store:
            partial = {r.key.as_str(): r for r in store.records()}
        resumed = subprocess.run([*argv, "--no-progress"], env=env, capture_output=True,
                                 text=True, check=True)
    match = re.search(r"(\d+) turns written, (\d+) already done, (\d+) in the suite",
                      resumed.stderr)
    assert match is not None, resumed.stderr
    written, done, total = map(int, match.groups())
    assert 0 < done == len(partial) < total and written + done == total
    with RunStore(tmp_path / "run", create=False) as store:
        records = {r.key.as_str(): r for r in store.records()}
    assert len(records) == total
    assert all(records[k].answer == r.answer for k, r in partial.items())
    later = [r for r in records.values() if r.case and r.case.turn == 2]
    assert later and all(len(r.case.history) == 1 for r in later if r.case)


def test_a_live_turn_asks_for_the_support_keys_and_a_single_question_does_not(
        tmp_path: Path, fake: FakeProvider, canary_keys: dict,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A conversation turn's request uses the conversation template and contract (steps,
    identifiers, answer type); the reply's keys reach the scored turn. A single question's
    request is the one it always was: no conversation, no support keys."""
    from simulator.readers.chat_prompt import CASE_SYSTEM, SYSTEM

    assert run_cli(fake, tmp_path / "run", "--cache", "off", "--scenarios", "clean") == 0
    turns = [c for c in fake.calls if not c.is_preflight]
    assert turns and all(c.body["messages"][0]["content"] == CASE_SYSTEM for c in turns)
    schema = turns[0].body["response_format"]["json_schema"]["schema"]
    assert {"steps", "identifiers", "answer_type"} <= set(schema["required"])
    later = [c.prompt for c in turns if c.prompt.startswith("Conversation so far:\nUser: ")]
    assert later
    with RunStore(tmp_path / "run", create=False) as store:
        replies = [r.case.reply for r in store.records() if r.case and r.case.reply]
    answered = [r for r in replies if not r.abstained]
    assert answered and all(r.answer_type == "diagnose" for r in answered)
    assert any(r.steps for r in answered) and all(r.identifiers for r in answered)

    with FakeProvider() as other:  # a fresh server: the single-question suite
        assert main(["run", "--out", str(tmp_path / "single"), "--model", "openai:m1",
                     "--base-url", other.url, "--timeout", "2", "--backoff", "0",
                     "--no-progress", "--tasks", "2", "--scenarios", "clean",
                     "--modes", "strict", "--format", "none", "--cache", "off"]) == 0
        single = [c for c in other.calls if not c.is_preflight]
    assert single and all(c.body["messages"][0]["content"] == SYSTEM for c in single)
    assert all("steps" not in c.body["response_format"]["json_schema"]["schema"]["properties"]
               for c in single)
    assert not any("Conversation so far" in c.prompt for c in single)
