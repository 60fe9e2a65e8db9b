"""One provider call under the run's discipline, for every caller: chat readers and the
model calls of tool-calling agents.

Retries follow the run's policy (retryable errors only, the paper's backoff); what is left
after the last attempt is classified once, here: a refusal (bad key, unknown model) stops
the run (:class:`ProviderRejected`), anything else that is the provider's fault makes the
record a provider error (:class:`ProviderFailed`), and a bug propagates unchanged. The same
provider error on many calls in a row stops the run too (simulator/live/streak.py).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from simulator.live.classify import describe, is_fatal, is_provider_error
from simulator.live.errors import ProviderRefusing, ProviderRejected
from simulator.live.policy import acall_with_retries
from simulator.live.services import LiveServices

log = logging.getLogger(__name__)
T = TypeVar("T")


class ProviderFailed(Exception):
    """The provider failed after every retry: the record is a provider error, not the
    reader's or the agent's failure. ``str()`` is the record's reason."""


async def call_provider(services: LiveServices, model: str,
                        attempt: Callable[[], Awaitable[T]]) -> T:
    """``attempt`` under the retry policy; a final failure classified as described above."""
    try:
        result = await acall_with_retries(attempt, services.retry, sleep=services.pause)
    except Exception as exc:
        if not is_provider_error(exc):
            raise
        if is_fatal(exc):
            raise ProviderRejected(f"{model}: the provider refused the request "
                                   f"({describe(exc)}); check the API key, access and "
                                   "model name") from None
        services.stats.add("provider_errors")
        description = describe(exc)
        log.warning("%s: provider error after retries: %s", model, description)
        if services.failures.failed(f"{model}: {description}"):
            raise ProviderRefusing(
                f"{model}: the same provider error ended {services.failures.threshold} "
                f"records in a row ({description}); the server or its settings refuse "
                "these requests (docs/live_models.md)") from None
        raise ProviderFailed(f"provider error: {description}") from None
    return result
