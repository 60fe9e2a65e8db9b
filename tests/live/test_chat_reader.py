"""Chat readers against a real loopback server speaking each provider's protocol."""

from __future__ import annotations

import json
import logging

import pytest
from pydantic import SecretStr

from simulator.errors import UsageError
from simulator.live.errors import ProviderRejected
from simulator.live.services import LiveServices
from simulator.readers.base import Evidence, ReaderInput
from simulator.readers.chat import build_chat_reader
from simulator.readers.chat_clients import GenerationSettings, build_chat_model
from simulator.readers.chat_prompt import TEMPLATE_VERSION, render_user
from simulator.readers.registry import resolve_reader
from tests.live.conftest import CANARY
from tests.live.fake_provider import Answer, BrokenBody, FakeProvider, Malformed, Status

PROVIDERS = ("openai", "anthropic", "google")
ITEM = ReaderInput(
    question="How many days do customers have to return an item?", answer_format="duration",
    evidence=(
        Evidence(doc_id="doc-a1", title="Returns policy", status="superseded",
                 effective_year=2021, version="v1", domain="returns",
                 text="Customers may return items within 14 days of delivery."),
        Evidence(doc_id="doc-b2", title="Returns policy", status="current",
                 effective_year=2024, version="v2", domain="returns",
                 text="Customers may return items within 30 days of delivery."),
    ),
    notes=("shard eu-2 answered late",),
)


def _reader(provider: str, fake: FakeProvider, services: LiveServices, **generation: object):
    return build_chat_reader(provider, "m1", base_url=fake.url, generation=generation,
                             services=services)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_valid_answer_is_parsed_with_citations_and_token_usage(
        provider: str, fake: FakeProvider, services: LiveServices, canary_keys: dict) -> None:
    result = _reader(provider, fake, services).read(ITEM)
    assert result.answer.answer == "30 days" and result.answer.citations == ("doc-b2",)
    assert not result.reader_error and not result.provider_error
    assert (result.input_tokens, result.output_tokens) == (100, 20)
    assert result.prompt_hash == ITEM.prompt_hash(TEMPLATE_VERSION)
    assert len(fake.requests) == 1


@pytest.mark.parametrize("provider", PROVIDERS)
def test_429_then_500_then_success_takes_three_attempts_and_honours_retry_after(
        provider: str, fake: FakeProvider, services: LiveServices, sleeps: list[float],
        canary_keys: dict) -> None:
    fake.script(Status(429, retry_after="2"), Status(500), Answer())
    result = _reader(provider, fake, services).read(ITEM)
    assert result.answer.answer == "30 days"
    assert len(fake.requests) == 3
    assert sleeps == [2.0, 0.02]  # Retry-After, then the linear backoff 2 x 0.01


@pytest.mark.parametrize("provider", PROVIDERS)
def test_errors_that_exhaust_three_attempts_become_a_provider_error(
        provider: str, fake: FakeProvider, services: LiveServices, canary_keys: dict) -> None:
    fake.script(Status(500), Status(503), Status(500), Answer())
    result = _reader(provider, fake, services).read(ITEM)
    assert result.provider_error and not result.reader_error
    assert result.answer.answer is None and "provider error" in (result.answer.reason or "")
    assert len(fake.requests) == 3


@pytest.mark.parametrize("provider", PROVIDERS)
def test_responses_slower_than_the_timeout_are_retried_then_recorded_as_provider_errors(
        provider: str, fake: FakeProvider, sleeps: list[float], canary_keys: dict) -> None:
    services = LiveServices(timeout_s=0.2, sleep=sleeps.append)
    fake.script(*[Answer(delay=0.6)] * 3)
    result = _reader(provider, fake, services).read(ITEM)
    assert result.provider_error
    assert len(fake.requests) == 3 and sleeps == [2.0, 4.0]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_an_unparseable_answer_is_a_reader_failure_not_a_crash_nor_a_retry(
        provider: str, fake: FakeProvider, services: LiveServices, canary_keys: dict) -> None:
    fake.script(Malformed("The answer is 30 days, I think {"))
    result = _reader(provider, fake, services).read(ITEM)
    assert result.reader_error and not result.provider_error
    assert result.answer.answer is None and result.answer.reason.startswith("reader error")
    assert result.input_tokens == 100  # the call happened and is paid for
    assert len(fake.requests) == 1


def test_valid_json_that_breaks_the_schema_is_a_reader_failure(
        fake: FakeProvider, services: LiveServices, canary_keys: dict) -> None:
    fake.script(Malformed(json.dumps({"answer": "30 days", "sources": ["doc-b2"]})))
    result = _reader("openai", fake, services).read(ITEM)
    assert result.reader_error
    assert "schema" in result.answer.reason and "citations" in result.answer.reason


def test_an_answer_neither_given_nor_abstained_is_a_reader_failure(
        fake: FakeProvider, services: LiveServices, canary_keys: dict) -> None:
    fake.script(Answer({"answer": None, "citations": [], "abstain": False, "reason": None}))
    assert _reader("openai", fake, services).read(ITEM).reader_error


def test_an_abstention_is_a_structured_non_answer_with_its_reason(
        fake: FakeProvider, services: LiveServices, canary_keys: dict) -> None:
    fake.script(Answer({"answer": None, "citations": [], "abstain": True,
                        "reason": "the documents disagree"}))
    result = _reader("openai", fake, services).read(ITEM)
    assert result.answer.abstained and result.answer.reason == "the documents disagree"
    assert not result.reader_error


def test_a_broken_http_body_is_retried_and_one_that_stays_broken_is_a_provider_error(
        fake: FakeProvider, services: LiveServices, canary_keys: dict) -> None:
    fake.script(BrokenBody())
    assert not _reader("openai", fake, services).read(ITEM).provider_error
    assert len(fake.requests) == 2
    fake.script(BrokenBody(), BrokenBody(), BrokenBody())
    result = _reader("openai", fake, services).read(ITEM.model_copy(update={"notes": ()}))
    assert result.provider_error and len(fake.requests) == 5
    assert result.answer.reason == ("provider error: unusable response (not_json): the body "
                                    "is not JSON (an HTML page or a cut-off body)")


def test_a_server_refusing_json_schema_is_asked_again_with_json_object_once(
        services: LiveServices, canary_keys: dict) -> None:
    with FakeProvider(reject_json_schema=True) as fake:
        reader = _reader("openai", fake, services)
        first, second = reader.read(ITEM), reader.read(ITEM.model_copy(update={"notes": ()}))
    formats = [r.body["response_format"]["type"] for r in fake.requests]
    assert formats == ["json_schema", "json_object", "json_object"]
    assert fake.requests[1].body["response_format"]["schema"]["required"] == [
        "answer", "citations", "abstain", "reason", "conflict"]
    assert first.answer.answer == second.answer.answer == "30 days"
    assert reader.output_method == "json_object"


def test_the_prompt_carries_allowlisted_metadata_notes_and_no_domain(
        fake: FakeProvider, services: LiveServices, canary_keys: dict) -> None:
    _reader("openai", fake, services).read(ITEM)
    prompt = fake.requests[0].prompt
    assert prompt == render_user(ITEM)
    for text in ('doc_id="doc-b2"', 'status="current"', "effective_year=2024", 'version="v2"',
                 "Answer format: duration", "shard eu-2 answered late"):
        assert text in prompt
    assert "returns" not in prompt.replace("return ", "").replace("Returns policy", "")
    assert "domain" not in prompt


def test_generation_settings_reach_the_request(
        fake: FakeProvider, services: LiveServices, canary_keys: dict) -> None:
    _reader("openai", fake, services, max_output_tokens=123, temperature=0.0).read(ITEM)
    body = fake.requests[0].body
    assert body["max_tokens"] == 123 and body["temperature"] == 0.0


def test_sdk_retries_are_off_so_the_policy_is_the_only_retry_loop(
        fake: FakeProvider, canary_keys: dict, sleeps: list[float]) -> None:
    from simulator.live.policy import RetryPolicy

    services = LiveServices(retry=RetryPolicy(attempts=1), sleep=sleeps.append)
    fake.script(Status(503), Answer())
    assert _reader("openai", fake, services).read(ITEM).provider_error
    assert len(fake.requests) == 1


def test_the_key_is_sent_to_the_provider_and_nowhere_else(
        fake: FakeProvider, services: LiveServices, canary_keys: dict,
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    fake.script(Status(500), Status(500), Status(500))
    result = _reader("openai", fake, services).read(ITEM)
    assert fake.requests[0].headers["authorization"] == f"Bearer {CANARY}"
    assert CANARY not in result.model_dump_json()
    assert CANARY not in caplog.text


def test_a_rejected_key_stops_the_run_with_a_message_free_of_the_key(
        fake: FakeProvider, services: LiveServices, canary_keys: dict) -> None:
    fake.script(Status(401, message=f"Incorrect API key provided: {CANARY}"))
    with pytest.raises(ProviderRejected) as info:
        _reader("openai", fake, services).read(ITEM)
    assert "401" in str(info.value) and CANARY not in str(info.value)


@pytest.mark.parametrize(("model", "variable"), [
    ("openai:gpt-4o", "OPENAI_API_KEY"), ("anthropic:claude-x", "ANTHROPIC_API_KEY"),
    ("google:gemini-x", "GOOGLE_API_KEY or GEMINI_API_KEY"),
])
def test_a_missing_key_is_a_one_line_usage_error_before_any_call(
        model: str, variable: str, no_keys: None) -> None:
    with pytest.raises(UsageError, match=variable) as info:
        resolve_reader(model)
    assert "\n" not in str(info.value)


def test_a_local_server_needs_no_key(fake: FakeProvider, services: LiveServices,
                                     no_keys: None) -> None:
    reader = _reader("openai", fake, services)
    assert reader.read(ITEM).answer.answer == "30 days"
    assert reader.provider == "openai-compatible"
    assert fake.requests[0].headers["authorization"] == "Bearer layerrag-no-key"


def test_gemini_key_may_come_from_gemini_api_key(monkeypatch: pytest.MonkeyPatch,
                                                 no_keys: None) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "g-canary")
    assert resolve_reader("google:gemini-x").name == "google:gemini-x"


def test_unknown_providers_and_bad_settings_are_usage_errors(canary_keys: dict) -> None:
    with pytest.raises(UsageError, match="Did you mean: anthropic"):
        resolve_reader("antropic:claude")
    with pytest.raises(UsageError, match="max_output_tokens"):
        resolve_reader("openai:gpt-4o", generation={"max_output_tokens": 0})
    with pytest.raises(UsageError, match="name a model"):
        resolve_reader("openai:")


def test_an_unknown_provider_is_a_one_line_usage_error_naming_it() -> None:
    with pytest.raises(UsageError, match="^unknown provider 'mistral'; known: openai, "
                                         "anthropic, google$"):
        build_chat_model("mistral", "m", key=SecretStr("k"), base_url=None,
                         settings=GenerationSettings(), timeout_s=1.0)


def test_a_model_name_with_a_colon_reaches_a_local_server_intact(
        fake: FakeProvider, services: LiveServices, no_keys: None) -> None:
    reader = build_chat_reader("openai", "qwen2.5:7b", base_url=fake.url, services=services)
    assert reader.read(ITEM).answer.answer == "30 days"
    assert fake.requests[0].body["model"] == "qwen2.5:7b"


def test_identical_prompts_in_flight_together_cost_one_call(
        tmp_path, fake: FakeProvider, services: LiveServices, canary_keys: dict) -> None:
    import asyncio

    from simulator.live import loop as live_loop
    from simulator.live.cache import CallCache

    services.cache = CallCache(tmp_path / "calls.sqlite")
    reader = _reader("openai", fake, services)

    async def both() -> list:
        return list(await asyncio.gather(reader.aread(ITEM), reader.aread(ITEM)))

    first, second = live_loop.run(both())
    assert len(fake.requests) == 1 and first.answer == second.answer
    assert sorted([first.input_tokens, second.input_tokens]) == [0, 100]  # the hit is free
    assert services.stats.snapshot()["cache_hits"] == 1


def test_provider_errors_are_not_recorded_so_a_later_run_tries_again(
        tmp_path, fake: FakeProvider, services: LiveServices, canary_keys: dict) -> None:
    from simulator.live.cache import CallCache

    services.cache = CallCache(tmp_path / "calls.sqlite")
    fake.script(Status(500), Status(500), Status(500))
    reader = _reader("openai", fake, services)
    assert reader.read(ITEM).provider_error
    assert reader.read(ITEM).provider_error  # the same run shares the outcome, no request
    assert len(fake.requests) == 3 and len(services.cache) == 0
    later_run = LiveServices(retry=services.retry, timeout_s=services.timeout_s,
                             cache=CallCache(tmp_path / "calls.sqlite"))
    assert not _reader("openai", fake, later_run).read(ITEM).provider_error
    assert len(fake.requests) == 4 and len(later_run.cache or []) == 1


def test_reader_failures_are_recorded_answers_and_replay_as_such(
        tmp_path, fake: FakeProvider, services: LiveServices, canary_keys: dict) -> None:
    from simulator.live.cache import CallCache

    services.cache = CallCache(tmp_path / "calls.sqlite")
    fake.script(Malformed("nope"))
    first = _reader("openai", fake, services).read(ITEM)
    again = _reader("openai", fake, services).read(ITEM)
    assert first.reader_error and again.reader_error and len(fake.requests) == 1


def test_replay_needs_no_key_even_for_a_hosted_model(no_keys: None) -> None:
    reader = build_chat_reader("openai", "gpt-4o", services=LiveServices(replay=True))
    assert reader.name == "openai:gpt-4o"
