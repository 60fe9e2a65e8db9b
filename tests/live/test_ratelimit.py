"""``--rpm`` as a specification: which requests take a token, and how far apart they go.

Pacing is checked without wall-clock thresholds that could flake: LangChain's bucket starts
empty and refills at ``rpm / 60`` tokens a second on the monotonic clock, so N requests
cannot all be granted in less than ``N * 60 / rpm`` seconds of that clock — a lower bound
that holds however slow the machine is. Which requests take a token is counted with a
recording limiter (LangChain's limiter interface, no clock at all).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from langchain_core.rate_limiters import BaseRateLimiter, InMemoryRateLimiter

from simulator.cli.main import main
from simulator.live import loop as live_loop
from simulator.live import services as services_module
from simulator.live.cache import CallCache
from simulator.live.ratelimit import rpm_limiter
from simulator.live.services import LiveServices
from simulator.readers.base import Evidence, ReaderInput
from simulator.readers.chat import ChatReader, build_chat_reader
from tests.conftest import TINY_SPEC
from tests.live.conftest import FAST_RETRY
from tests.live.fake_provider import Answer, FakeProvider, Status

NAME = "openai:m1"
ITEM = ReaderInput(
    question="How many days do customers have to return an item?", answer_format="duration",
    evidence=(Evidence(doc_id="doc-b2", title="Returns policy", status="current",
                       effective_year=2024, version="v2", domain="returns",
                       text="Customers may return items within 30 days of delivery."),),
)


class RecordingLimiter(BaseRateLimiter):
    """Notes how many requests the server had seen at each grant.

    Grants at once, or when ``inner`` (a real limiter) does.
    """

    def __init__(self, fake: FakeProvider, inner: BaseRateLimiter | None = None) -> None:
        self.fake = fake
        self.inner = inner
        self.grants: list[int] = []

    def acquire(self, *, blocking: bool = True) -> bool:
        if self.inner is not None:
            self.inner.acquire(blocking=True)
        self.grants.append(len(self.fake.requests))
        return True

    async def aacquire(self, *, blocking: bool = True) -> bool:
        if self.inner is not None:
            await self.inner.aacquire(blocking=True)
        self.grants.append(len(self.fake.requests))
        return True


def _reader(fake: FakeProvider, services: LiveServices) -> ChatReader:
    return build_chat_reader("openai", "m1", base_url=fake.url, services=services)


def _recorded(fake: FakeProvider, sleeps: list[float], *, cache: CallCache | None = None,
              replay: bool = False) -> tuple[LiveServices, RecordingLimiter]:
    limiter = RecordingLimiter(fake)
    services = LiveServices(retry=FAST_RETRY, timeout_s=0.5, sleep=sleeps.append,
                            limiters={NAME: limiter}, cache=cache, replay=replay)
    return services, limiter


def _noted(n: int) -> ReaderInput:
    return ITEM.model_copy(update={"notes": (f"note {n}",)})


def test_rpm_is_a_token_bucket_of_one_request_refilled_at_rpm_per_minute() -> None:
    limiter = rpm_limiter(120)
    assert isinstance(limiter, InMemoryRateLimiter)
    assert (limiter.requests_per_second, limiter.max_bucket_size) == (2.0, 1)


def test_the_bucket_starts_empty_so_no_first_burst() -> None:
    assert not rpm_limiter(1).acquire(blocking=False)


def test_each_model_has_one_limiter_shared_by_all_its_calls() -> None:
    services = LiveServices(rpm=60)
    assert services.rate_limiter("openai:a") is services.rate_limiter("openai:a")
    assert services.rate_limiter("openai:a") is not services.rate_limiter("openai:b")


def test_without_rpm_nothing_is_limited() -> None:
    assert LiveServices().rate_limiter(NAME) is None


def test_every_request_takes_a_token_before_it_is_sent_retries_included(
        fake: FakeProvider, sleeps: list[float], canary_keys: dict) -> None:
    services, limiter = _recorded(fake, sleeps)
    fake.script(Status(429), Status(500), Answer())
    assert not _reader(fake, services).read(ITEM).provider_error
    assert limiter.grants == [0, 1, 2]


def test_the_json_object_fallback_is_a_request_and_takes_a_token(
        sleeps: list[float], canary_keys: dict) -> None:
    with FakeProvider(reject_json_schema=True) as fake:
        services, limiter = _recorded(fake, sleeps)
        _reader(fake, services).read(ITEM)
    assert limiter.grants == [0, 1]


def test_cache_hits_and_replays_take_no_token(
        tmp_path: Path, fake: FakeProvider, sleeps: list[float], canary_keys: dict) -> None:
    cache = tmp_path / "calls.sqlite"
    services, limiter = _recorded(fake, sleeps, cache=CallCache(cache))
    _reader(fake, services).read(ITEM)
    _reader(fake, services).read(ITEM)
    replaying, replay_limiter = _recorded(fake, sleeps, cache=CallCache(cache), replay=True)
    _reader(fake, replaying).read(ITEM)
    assert (limiter.grants, replay_limiter.grants, len(fake.requests)) == ([0], [], 1)


def test_rpm_paces_concurrent_calls_to_one_model(
        fake: FakeProvider, sleeps: list[float], canary_keys: dict) -> None:
    rpm, calls = 600, 4
    reader = _reader(fake, LiveServices(retry=FAST_RETRY, timeout_s=0.5, rpm=rpm,
                                        sleep=sleeps.append))

    async def together() -> None:
        await asyncio.gather(*(reader.aread(_noted(n)) for n in range(calls)))

    started = time.monotonic()
    live_loop.run(together())
    assert time.monotonic() - started >= calls * 60 / rpm
    assert len(fake.requests) == calls


def test_the_rpm_option_gives_a_live_run_one_limiter_that_every_request_takes(
        tmp_path: Path, fake: FakeProvider, canary_keys: dict,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    built: list[tuple[float, RecordingLimiter]] = []

    def recording_rpm_limiter(rpm: float) -> BaseRateLimiter:
        built.append((rpm, RecordingLimiter(fake, inner=rpm_limiter(rpm))))
        return built[-1][1]

    monkeypatch.setattr(services_module, "rpm_limiter", recording_rpm_limiter)
    code = main(["run", "--out", str(tmp_path / "run"), "--spec", str(TINY_SPEC),
                 "--model", NAME, "--base-url", fake.url, "--timeout", "0.5", "--backoff",
                 "0", "--no-progress", "--scenarios", "clean", "--modes", "strict",
                 "--cache", "off", "--concurrency", "4", "--format", "none",
                 "--rpm", "6000"])
    assert code == 0 and len(fake.calls) == 12 and len(fake.requests) == 13  # + preflight
    assert [(rpm, len(limiter.grants)) for rpm, limiter in built] == [(6000.0, 13)]

