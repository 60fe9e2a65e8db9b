"""Tool-calling agents against local servers' tool-calling rules (issue 27): the preflight
picks the tool-call mode the server accepts, what is sent is what the server accepts, and
a server with no tool calling is refused in one line before anything is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.live.streak import REPEATED_FAILURES
from simulator.live.wire import compatible_body
from simulator.runner.live import EXIT_PROVIDER_REFUSING
from simulator.runner.store import RunStore
from tests.conftest import TINY_SPEC
from tests.live.fake_provider import FakeProvider


def _run(fake: FakeProvider, out: Path, *extra: str) -> int:
    return main(["run", "--agent", "react", "--model", "openai:m1", "--base-url", fake.url,
                 "--spec", str(TINY_SPEC), "--tasks", "8",
                 "--scenarios", "clean,schema_drift,permission_denied", "--out", str(out),
                 "--cache", "off", "--attempts", "1", "--timeout", "5", "--format", "none",
                 "--no-progress", *extra])


def test_against_llama_cpp_python_the_run_completes_with_tool_calls_on_every_record(
        tmp_path: Path, canary_keys: dict, capsys: pytest.CaptureFixture[str]) -> None:
    with FakeProvider(emulate="llama.cpp") as fake:
        code = _run(fake, tmp_path / "r")
        agent_requests = [r for r in fake.calls if r.is_agent]
    err = capsys.readouterr().err
    assert code == 0, err
    assert "tool calls: openai:m1 auto" in err
    with RunStore(tmp_path / "r", create=False) as store:
        records = list(store.records())
        manifest = store.manifest() or {}
    assert manifest["tool_call_mode"] == {"openai:m1": "auto"}
    assert len(records) == 48
    assert not any(r.provider_error or r.agent_error for r in records)
    assert all(r.trace["tool_calls"] for r in records)  # every record's search reached the tool
    assert any(r.S for r in records)
    assert agent_requests and all(r.body.get("tool_choice") == "auto" for r in agent_requests)
    for request in agent_requests:  # no null content beside a tool call ever went out
        assert all(m.get("content") is not None for m in request.body["messages"])


def test_a_forced_mode_is_used_without_probing_the_others(
        tmp_path: Path, canary_keys: dict, capsys: pytest.CaptureFixture[str]) -> None:
    with FakeProvider(emulate="llama.cpp") as fake:
        code = _run(fake, tmp_path / "r", "--tool-choice", "named")
        choices = {json.dumps(r.body.get("tool_choice"), sort_keys=True)
                   for r in fake.requests if r.is_agent}
    assert code == 0, capsys.readouterr().err
    assert choices == {json.dumps({"type": "function", "function": {"name": n}},
                                  sort_keys=True) for n in ("search_policies", "FinalAnswer")}


def test_a_server_without_tool_calling_is_refused_in_one_line(
        tmp_path: Path, canary_keys: dict, capsys: pytest.CaptureFixture[str]) -> None:
    with FakeProvider(emulate="no-tools") as fake:
        code = _run(fake, tmp_path / "r")
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert len(err) == 1 and err[0].startswith("error: preflight: openai:m1 at ")
    assert ("made no usable tool call (required: answered without a tool call; auto: "
            "answered without a tool call; named: answered without a tool call)") in err[0]
    assert not (tmp_path / "r").exists()


def test_an_assistant_tool_call_is_sent_with_empty_content_not_null() -> None:
    body = {"model": "m", "messages": [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1"}]},
        {"role": "tool", "content": "x", "tool_call_id": "c1"}]}
    fixed = compatible_body(json.dumps(body).encode())
    assert fixed is not None
    assert json.loads(fixed)["messages"][1]["content"] == ""
    assert compatible_body(fixed) is None  # already compatible: sent unchanged


def test_the_same_refusal_on_every_call_stops_the_run_and_a_fixed_server_resumes_it(
        tmp_path: Path, canary_keys: dict, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r"
    with FakeProvider(emulate="small-context") as fake:
        code = _run(fake, out, "--concurrency", "2")
        sent = len(fake.calls)
        err = capsys.readouterr().err
        assert code == EXIT_PROVIDER_REFUSING, err
        stopped = [line for line in err.splitlines() if line.startswith("stopped: ")]
        assert len(stopped) == 1
        assert (f"openai:m1: the same provider error ended {REPEATED_FAILURES} records in a "
                "row (OpenAIInvalidRequestError (HTTP 400): the request exceeds the available "
                "context size, try increasing it)") in stopped[0]
        assert stopped[0].endswith("fix it and re-run the same command to resume (the "
                                   "failed records are retried)")
        assert sent < 48  # it did not spend one failing call per record of the matrix
        with RunStore(out, create=False) as store:
            failed = store.provider_error_count()
            assert store.count() < 48
        # the streak's records, the records sharing their calls (strict and repair of a
        # scenario that leaves the evidence alone) and what was in flight; not the matrix
        assert REPEATED_FAILURES - 1 <= failed <= 2 * (REPEATED_FAILURES + 2)
        fake.emulate = None  # the server restarted with a larger context, same address
        code = _run(fake, out)
    assert code == 0, capsys.readouterr().err
    with RunStore(out, create=False) as store:
        assert store.count() == 48 and store.provider_error_count() == 0


def test_vllm_without_auto_tool_choice_runs_in_required_mode(
        tmp_path: Path, canary_keys: dict, capsys: pytest.CaptureFixture[str]) -> None:
    with FakeProvider(emulate="vllm-no-parser") as fake:
        code = _run(fake, tmp_path / "r")
    err = capsys.readouterr().err
    assert code == 0, err
    assert "tool calls: openai:m1 required" in err
    with RunStore(tmp_path / "r", create=False) as store:
        records = list(store.records())
    assert len(records) == 48 and not any(r.provider_error for r in records)
    assert all(r.trace["tool_calls"] for r in records)


def test_a_tool_call_written_as_text_is_refused_with_the_servers_fix(
        tmp_path: Path, canary_keys: dict, capsys: pytest.CaptureFixture[str]) -> None:
    with FakeProvider(emulate="tool-call-text") as fake:
        code = _run(fake, tmp_path / "r")
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1, err
    assert ("(required: wrote its tool call as text, which the server did not parse; auto: "
            "wrote its tool call as text") in err[0]
    assert "start the server with its tool-call parser (vLLM: --enable-auto-tool-choice" in err[0]
    assert not (tmp_path / "r").exists()


def test_llama_server_without_jinja_stops_the_run_with_its_reason(
        tmp_path: Path, canary_keys: dict, capsys: pytest.CaptureFixture[str]) -> None:
    with FakeProvider(emulate="llama-server-no-jinja") as fake:
        code = _run(fake, tmp_path / "r")
    err = capsys.readouterr().err
    assert code == EXIT_PROVIDER_REFUSING, err
    assert "tools param requires --jinja flag" in err
    with RunStore(tmp_path / "r", create=False) as store:
        assert store.count() < 48  # stopped, not spent on every record
