"""The LLM judge against the loopback fake provider: parsed, failing closed, cached,
replayed, budgeted and resumed (issue 30, item 3)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.judge.store import read_judgments
from simulator.runner.store import RunStore
from tests.live.fake_provider import FakeProvider, Malformed, Request, Status

pytestmark = pytest.mark.usefixtures("private_cache")
JUDGE = "openai:fake-judge"


def judge(run: Path, fake: FakeProvider, *extra: str) -> int:
    return main(["judge", str(run), "--judge", JUDGE, "--base-url", fake.url,
                 "--replicates", "20", "--no-progress", "--backoff", "0.01", *extra])


def judge_calls(fake: FakeProvider) -> list[Request]:
    return [r for r in fake.requests if r.is_judge]


def stored(run: Path) -> list:
    with RunStore(run, create=False) as store:
        return list(read_judgments(store, JUDGE))


def test_judgments_are_parsed_stored_and_sent_with_the_papers_settings(
        run: Path, fake: FakeProvider, capsys: pytest.CaptureFixture[str]) -> None:
    assert judge(run, fake, "--json") == 0
    out = capsys.readouterr()
    data = json.loads(out.out)
    assert sum(c["judged"] for c in data["cells"]) == 72
    assert sum(c["unjudged"] for c in data["cells"]) == 0
    assert data["judge_calls"]["this_invocation"]["requests"] >= 1
    judgments = stored(run)
    assert len(judgments) == 72 and all(j.status == "judged" for j in judgments)
    assert all(j.scores["identifier_integrity"].value is None for j in judgments)
    body = judge_calls(fake)[0].body
    assert body["temperature"] == 0.0 and body["top_p"] == 1.0 and body["max_tokens"] == 1024
    schema = body["response_format"]["json_schema"]
    assert body["response_format"]["type"] == "json_schema" and schema["strict"] is True
    assert len(schema["schema"]["required"]) == 16
    assert "hallucination_score" in schema["schema"]["properties"]
    prompt = judge_calls(fake)[0].body["messages"][1]["content"]
    assert "Case subject:" in prompt and "Retrieved evidence:" in prompt
    assert "expected" not in prompt.lower()  # no label reaches the judge
    # stale_index serves superseded documents shown as current: the judge cannot tell,
    # the reference judge can (calibration measures exactly that gap)
    assert "sk-judge-canary-41c9" not in (run / "runs.sqlite").read_bytes().decode("latin-1")


def test_malformed_replies_are_retried_then_unjudged_apart(
        run: Path, fake: FakeProvider, capsys: pytest.CaptureFixture[str]) -> None:
    fake.handler = lambda r: Malformed('{"hallucination_score": 2}') if r.is_judge else None
    assert judge(run, fake, "--json", "--judge-attempts", "2") == 0
    data = json.loads(capsys.readouterr().out)
    assert sum(c["judged"] for c in data["cells"]) == 0
    assert sum(c["unjudged"] for c in data["cells"]) == 72
    assert all(c["s_final"] is None for c in data["cells"])
    judgments = stored(run)
    assert all(j.status == "unjudged" for j in judgments)
    assert "malformed judge output after 2 attempts" in judgments[0].reason
    calls = judge_calls(fake)
    distinct = {json.dumps(c.body["messages"][:2], sort_keys=True) for c in calls}
    assert len(calls) == 2 * len(distinct)  # two attempts per distinct prompt, no more
    retry = next(c for c in calls if len(c.body["messages"]) > 2)
    assert "not a valid judgment" in retry.body["messages"][-1]["content"]


def test_a_retry_that_answers_well_is_judged(run: Path, fake: FakeProvider) -> None:
    fake.handler = lambda r: (Malformed("not json") if r.is_judge and
                              len(r.body["messages"]) == 2 else None)
    assert judge(run, fake) == 0
    assert all(j.status == "judged" for j in stored(run))


def test_a_replay_sends_no_request(run: Path, tiny_run: Path, tmp_path: Path,
                                   fake: FakeProvider) -> None:
    assert judge(run, fake) == 0
    first = {j.key: j.scores for j in stored(run)}
    again = Path(shutil.copytree(tiny_run, tmp_path / "again"))
    sent = len(fake.requests)
    assert judge(again, fake, "--replay") == 0
    assert len(fake.requests) == sent
    assert {j.key: j.scores for j in stored(again)} == first


def test_a_budget_stop_exits_3_and_resumes_without_duplicates(
        run: Path, tiny_run: Path, tmp_path: Path, fake: FakeProvider,
        capsys: pytest.CaptureFixture[str]) -> None:
    whole = Path(shutil.copytree(tiny_run, tmp_path / "whole"))
    with FakeProvider() as other:
        assert main(["judge", str(whole), "--judge", JUDGE, "--base-url", other.url,
                     "--cache", "off", "--no-progress"]) == 0
        needed = len(judge_calls(other))
    capsys.readouterr()
    assert judge(run, fake, "--cache", "off", "--judge-max-calls", "10") == 3
    err = capsys.readouterr().err
    assert "call budget spent" in err and "--judge-max-calls" in err
    assert 0 < len(stored(run)) < 72
    assert judge(run, fake, "--cache", "off", "--judge-max-calls", "1000") == 0
    assert len(stored(run)) == 72 and all(j.status == "judged" for j in stored(run))
    assert len(judge_calls(fake)) == needed  # resumed: no record judged twice
    spend = json.loads((run / "judge_spend.json").read_text())
    assert spend["calls"] == len(fake.requests)  # preflights included
    assert not (run / "live_spend.json").exists()  # the agent's ledger is untouched


def test_provider_errors_are_unjudged_and_retried_on_rerun(
        run: Path, fake: FakeProvider, capsys: pytest.CaptureFixture[str]) -> None:
    failed = []

    def flaky(r: Request) -> Status | None:
        if r.is_judge and len(failed) < 3:
            failed.append(r)
            return Status(503)
        return None

    fake.handler = flaky
    assert judge(run, fake, "--attempts", "1", "--concurrency", "1") == 0
    unjudged = [j for j in stored(run) if j.status == "unjudged"]
    assert len(unjudged) == 3
    assert all(j.reason.startswith("judge provider error") for j in unjudged)
    assert judge(run, fake, "--attempts", "1") == 0
    assert all(j.status == "judged" for j in stored(run))


def test_a_provider_failing_every_call_stops_with_exit_7(
        run: Path, fake: FakeProvider, capsys: pytest.CaptureFixture[str]) -> None:
    fake.handler = lambda r: Status(503) if r.is_judge else None
    assert judge(run, fake, "--attempts", "1") == 7
    err = capsys.readouterr().err
    assert "the same provider error ended" in err and "0 records judged" in err


def test_a_server_refusing_json_schema_gets_json_object(run: Path) -> None:
    with FakeProvider(reject_json_schema=True) as fake:
        assert judge(run, fake) == 0
        formats = {(c.body.get("response_format") or {}).get("type")
                   for c in judge_calls(fake)}
    assert formats == {"json_object"}
    assert all(j.status == "judged" for j in stored(run))
