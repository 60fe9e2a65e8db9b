"""The call policy as a specification: which errors are retried, how long we wait, when we stop.

No server here: real SDK exception objects, a patched sleep and a fake clock.
"""

from __future__ import annotations

import asyncio
import email.utils

import anthropic
import httpx2
import openai
import pytest
from google.genai import errors as genai_errors

from simulator.live.budget import CallBudget, Spend
from simulator.live.classify import describe, is_fatal, is_retryable, retry_after
from simulator.live.errors import BudgetExhausted
from simulator.live.policy import RetryPolicy, acall_with_retries, call_with_retries

_REQUEST = httpx2.Request("POST", "http://127.0.0.1/v1/chat/completions")


def _status(cls: type[openai.APIStatusError], code: int, **headers: str) -> Exception:
    return cls("scripted", response=httpx2.Response(code, request=_REQUEST, headers=headers),
               body=None)


class Flaky:
    """Fails with the given errors in order, then returns "ok"; counts attempts."""

    def __init__(self, *errors: Exception) -> None:
        self.errors = list(errors)
        self.attempts = 0

    def __call__(self) -> str:
        self.attempts += 1
        if self.errors:
            raise self.errors.pop(0)
        return "ok"


@pytest.mark.parametrize("error", [
    _status(openai.RateLimitError, 429),
    _status(openai.InternalServerError, 500),
    _status(openai.InternalServerError, 503),
    anthropic.InternalServerError("overloaded", body=None,
                                  response=httpx2.Response(529, request=_REQUEST)),
    openai.APITimeoutError(request=_REQUEST),
    openai.APIConnectionError(request=_REQUEST),
    httpx2.ReadTimeout("slow", request=_REQUEST),
    httpx2.ConnectError("refused", request=_REQUEST),
    genai_errors.ServerError(503, {"error": {"code": 503, "message": "m", "status": "U"}}),
    genai_errors.ClientError(429, {"error": {"code": 429, "message": "m", "status": "R"}}),
], ids=lambda e: type(e).__name__)
def test_rate_limits_server_errors_timeouts_and_connection_errors_are_retryable(
        error: Exception) -> None:
    assert is_retryable(error)


@pytest.mark.parametrize("error", [
    _status(openai.BadRequestError, 400),
    _status(openai.AuthenticationError, 401),
    _status(openai.NotFoundError, 404),
    genai_errors.ClientError(400, {"error": {"code": 400, "message": "m", "status": "I"}}),
    ValueError("a bug"),
], ids=lambda e: type(e).__name__)
def test_bad_requests_auth_errors_and_bugs_are_not_retryable(error: Exception) -> None:
    assert not is_retryable(error)


def test_a_rejected_key_or_unknown_model_is_fatal_for_the_run() -> None:
    assert is_fatal(_status(openai.AuthenticationError, 401))
    assert is_fatal(_status(openai.NotFoundError, 404))
    assert not is_fatal(_status(openai.RateLimitError, 429))


def test_retry_after_is_read_in_seconds_milliseconds_or_as_a_date() -> None:
    assert retry_after(_status(openai.RateLimitError, 429, **{"retry-after": "7"})) == 7.0
    assert retry_after(_status(openai.RateLimitError, 429, **{"retry-after-ms": "250"})) == 0.25
    date = email.utils.formatdate(1_000_030, usegmt=True)
    assert retry_after(_status(openai.RateLimitError, 429, **{"retry-after": date}),
                       now=1_000_000) == pytest.approx(30.0)
    assert retry_after(_status(openai.RateLimitError, 429)) is None


def test_descriptions_name_the_error_kind_and_status_never_the_provider_text() -> None:
    error = _status(openai.AuthenticationError, 401)
    error.message = "Incorrect API key provided: sk-canary***"
    assert describe(error) == "AuthenticationError (HTTP 401)"


def test_the_default_policy_is_three_attempts_with_a_two_second_linear_backoff() -> None:
    sleeps: list[float] = []
    flaky = Flaky(*[_status(openai.InternalServerError, 500)] * 3)
    with pytest.raises(openai.InternalServerError):
        call_with_retries(flaky, RetryPolicy(), sleep=sleeps.append)
    assert flaky.attempts == 3
    assert sleeps == [2.0, 4.0]


def test_a_call_that_recovers_returns_its_result_after_the_waits_so_far() -> None:
    sleeps: list[float] = []
    flaky = Flaky(_status(openai.InternalServerError, 502))
    assert call_with_retries(flaky, RetryPolicy(), sleep=sleeps.append) == "ok"
    assert (flaky.attempts, sleeps) == (2, [2.0])


def test_retry_after_longer_than_the_backoff_is_honoured_and_capped() -> None:
    sleeps: list[float] = []
    flaky = Flaky(_status(openai.RateLimitError, 429, **{"retry-after": "9"}),
                  _status(openai.RateLimitError, 429, **{"retry-after": "3600"}))
    policy = RetryPolicy(max_wait_s=60)
    assert call_with_retries(flaky, policy, sleep=sleeps.append) == "ok"
    assert sleeps == [9.0, 60.0]


def test_a_retry_after_shorter_than_the_backoff_does_not_shorten_it() -> None:
    sleeps: list[float] = []
    flaky = Flaky(_status(openai.RateLimitError, 429, **{"retry-after": "1"}))
    call_with_retries(flaky, RetryPolicy(), sleep=sleeps.append)
    assert sleeps == [2.0]


def test_non_retryable_errors_propagate_after_one_attempt() -> None:
    sleeps: list[float] = []
    flaky = Flaky(_status(openai.BadRequestError, 400))
    with pytest.raises(openai.BadRequestError):
        call_with_retries(flaky, RetryPolicy(), sleep=sleeps.append)
    assert (flaky.attempts, sleeps) == (1, [])


def test_a_spent_budget_stops_the_retry_loop_at_once() -> None:
    budget = CallBudget(max_calls=1)
    attempts = []

    def attempt() -> str:
        budget.reserve_call()
        attempts.append(1)
        raise _status(openai.InternalServerError, 500)

    with pytest.raises(BudgetExhausted, match="1 of 1 calls"):
        call_with_retries(attempt, RetryPolicy(), sleep=lambda s: None)
    assert len(attempts) == 1


def test_the_call_budget_is_never_exceeded_and_counts_what_was_spent_before() -> None:
    budget = CallBudget(max_calls=3, spent=Spend(calls=2))
    budget.reserve_call()
    with pytest.raises(BudgetExhausted):
        budget.reserve_call()
    assert budget.spent.calls == 3


def test_the_token_budget_stops_new_calls_once_reached() -> None:
    budget = CallBudget(max_tokens=100)
    budget.reserve_call()
    budget.add_usage(80, 30, None)
    with pytest.raises(BudgetExhausted, match="110 of 100 tokens"):
        budget.reserve_call()


def test_async_calls_follow_the_same_policy() -> None:
    sleeps: list[float] = []
    flaky = Flaky(_status(openai.RateLimitError, 429, **{"retry-after": "3"}),
                  _status(openai.InternalServerError, 500))

    async def attempt() -> str:
        return flaky()

    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)

    assert asyncio.run(acall_with_retries(attempt, RetryPolicy(), sleep=sleep)) == "ok"
    assert (flaky.attempts, sleeps) == (3, [3.0, 4.0])
