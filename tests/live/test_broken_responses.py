"""A 200 that is not a chat completion is a labelled provider error, never a crash or a leak.

The wire check (simulator/live/wire.py) classifies every unusable body; the reader turns
what is left after the retries into a provider-error record whose reason names the kind
and quotes nothing of the body. A whole run against a server that breaks 20 % of its
responses, and echoes the API key in them, completes with the documented exit code.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.live.services import LiveServices
from simulator.live.wire import BROKEN_KINDS, completion_fault
from simulator.readers.chat import build_chat_reader
from simulator.runner.store import RunStore
from tests.conftest import TINY_SPEC
from tests.live.conftest import CANARY
from tests.live.fake_provider import (
    EMPTY_CHOICES,
    HTML_PAGE,
    NO_CHOICES,
    Answer,
    FakeProvider,
    Malformed,
    Raw,
    Request,
)
from tests.live.test_chat_reader import ITEM

COMPLETION = {"id": "x", "choices": [{"index": 0, "message": {"role": "assistant",
                                                                "content": "{}"}}]}


@pytest.mark.parametrize(("body", "kind"), [
    (HTML_PAGE, "not_json"),
    (b'{"id": "x", "choices": [{"mess', "not_json"),
    (b"[1, 2]", "not_object"),
    (NO_CHOICES, "no_choices"),
    (b'{"choices": "none"}', "no_choices"),
    (EMPTY_CHOICES, "empty_choices"),
    (b'{"choices": [{"index": 0, "finish_reason": "stop"}]}', "no_message"),
    (json.dumps(COMPLETION).encode(), None),
])
def test_every_unusable_completion_body_has_a_kind(body: bytes, kind: str | None) -> None:
    assert completion_fault(body) == kind
    assert kind is None or kind in BROKEN_KINDS


def _reader(fake: FakeProvider, services: LiveServices, provider: str = "openai"):
    return build_chat_reader(provider, "m1", base_url=fake.url, services=services)


@pytest.mark.parametrize(("body", "kind"), [(HTML_PAGE, "not_json"),
                                            (NO_CHOICES, "no_choices"),
                                            (EMPTY_CHOICES, "empty_choices")])
def test_a_body_that_stays_broken_is_a_provider_error_after_every_attempt(
        fake: FakeProvider, services: LiveServices, canary_keys: dict, body: bytes,
        kind: str) -> None:
    fake.script(Raw(body), Raw(body), Raw(body))
    result = _reader(fake, services).read(ITEM)
    assert result.provider_error and not result.reader_error and len(fake.requests) == 3
    assert result.answer.reason == f"provider error: unusable response ({kind}): " \
                                   f"{BROKEN_KINDS[kind][0]}"


@pytest.mark.parametrize("provider", ["anthropic", "google"])
def test_other_protocols_unreadable_bodies_are_provider_errors_too(
        fake: FakeProvider, services: LiveServices, canary_keys: dict, provider: str) -> None:
    fake.script(Raw(HTML_PAGE, "text/html"), Raw(HTML_PAGE, "text/html"),
                Raw(HTML_PAGE, "text/html"))
    result = _reader(fake, services, provider).read(ITEM)
    assert result.provider_error and "unusable response" in (result.answer.reason or "")


def test_a_reply_cut_off_at_the_token_limit_is_unparseable_not_a_provider_error(
        fake: FakeProvider, services: LiveServices, canary_keys: dict) -> None:
    # the model's own output at this token limit: sent again, it is cut again
    fake.script(Malformed('{"answer": "30 da', finish_reason="length"))
    result = _reader(fake, services).read(ITEM)
    assert result.reader_error and not result.provider_error
    assert (result.answer.reason or "").startswith("reader error: ")
    assert (result.answer.reason or "").endswith(", cut off at the output token limit")
    assert len(fake.requests) == 1 and result.output_tokens == 20  # spent, and counted


def test_a_cut_off_reply_that_still_holds_an_answer_is_kept(
        fake: FakeProvider, services: LiveServices, canary_keys: dict) -> None:
    fake.script(Malformed(json.dumps({"answer": "30 days", "citations": ["doc-b2"],
                                      "abstain": False, "reason": None}),
                          finish_reason="length"))
    result = _reader(fake, services).read(ITEM)
    assert not result.provider_error and result.answer.answer == "30 days"


def _files_under(*roots: Path) -> list[Path]:
    return [p for root in roots for p in root.rglob("*") if p.is_file()]


def test_a_run_against_a_server_breaking_a_fifth_of_its_responses_completes_labelled(
        tmp_path: Path, canary_keys: dict, capsys: pytest.CaptureFixture[str],
        caplog: pytest.LogCaptureFixture) -> None:
    """Every fifth request gets an HTML page or choice-less JSON that echoes the key; the
    first task's prompts break on every attempt, so some records are provider errors."""
    echo_html = HTML_PAGE.replace(b"</h1>", f" key {CANARY}</h1>".encode())
    echo_json = json.dumps({"id": "x", "error": f"Incorrect API key provided: {CANARY}"})
    count = [0]

    def break_some(request: Request) -> Raw | None:
        count[0] += 1
        always = "Question: " + first_question in request.prompt
        if always or count[0] % 5 == 0:
            return Raw(echo_html, "text/html") if count[0] % 2 else Raw(echo_json.encode())
        return None

    from simulator.corpus import build_corpus

    first_question = build_corpus(TINY_SPEC).tasks[0].question
    with FakeProvider(handler=break_some) as fake:
        cache = tmp_path / "cache" / "calls.sqlite"
        code = main(["run", "--out", str(tmp_path / "run"), "--spec", str(TINY_SPEC),
                     "--model", "openai:m1", "--base-url", fake.url, "--timeout", "2",
                     "--backoff", "0", "--no-progress", "--cache", str(cache),
                     "--scenarios", "clean,conflicting_evidence"])
    out, err = capsys.readouterr()
    with RunStore(tmp_path / "run", create=False) as store:
        records = list(store.records())
    failed = [r for r in records if r.provider_error]
    assert code == 4 and len(records) == 2 * 2 * 12  # complete, exit 4 as documented
    assert failed and all(r.task_row == 0 for r in failed)
    assert all((r.reason or "").startswith("provider error: unusable response (")
               for r in failed)
    assert f"{len(failed)} records are provider errors" in err
    assert "Traceback" not in err and "Traceback" not in out
    leaks = [p for p in _files_under(tmp_path / "run", tmp_path / "cache")
             if CANARY.encode() in p.read_bytes()]
    assert leaks == []
    assert CANARY not in out and CANARY not in err and CANARY not in caplog.text


def test_a_model_that_echoes_the_key_in_its_answer_stores_no_key(
        fake: FakeProvider, services: LiveServices, canary_keys: dict) -> None:
    fake.script(Answer({"answer": f"key {CANARY}", "citations": [CANARY, "doc-b2"],
                        "abstain": False, "reason": f"I saw {CANARY}"}))
    result = _reader(fake, services).read(ITEM)
    assert CANARY not in result.model_dump_json()
    assert result.answer.answer == "key [key]" and result.answer.citations == ("[key]",
                                                                               "doc-b2")
