"""The preflight of a chat model: does the server answer, and how does it answer in structure?

Before a live run sends its first record, each chat reader sends one small fixed prompt.
A server that cannot be reached, refuses the key or does not know the model then stops the
run with one line (:class:`PreflightFailed`, exit 2) before anything is written, instead of
turning every record into a provider error.

With ``--structured-output auto`` on an OpenAI-compatible server the preflight also finds
the method the server accepts, trying in order

1. ``json_schema``: provider-native ``response_format`` with the strict schema;
2. ``json_object``: JSON mode with the schema attached (llama.cpp's server answers HTTP 500
   "Input should be 'text' or 'json_object'" to the first);
3. ``json_prompt``: no ``response_format``; the prompt asks for JSON and the reply is
   parsed tolerantly (a fenced block or an object inside prose is accepted).

A method is taken when the server answers it and the answer parses; a definite refusal (a
4xx, or a 500/501 naming the request) moves on to the next one, and an answer that does
not parse is kept only as a last resort. Transient failures (timeouts, 429, 502-504) are
retried under the run's policy first. The method found is fixed for the run: it is
recorded in the run manifest and reused, without probing, when the run resumes.

Preflight requests count against the call budget like any request (a run whose budget is
spent sends none). A new run's spend file does not exist yet when they are sent: they are
written to it with the run's first record, so a run killed in between has sent up to one
preflight per model (three attempts at most) that its spend file does not show.
"""

from __future__ import annotations

import logging
from typing import Any, NamedTuple, Protocol, cast

from langchain_core.messages import AIMessage

from simulator.errors import UsageError
from simulator.live.classify import (
    describe,
    is_fatal,
    is_provider_error,
    is_retryable,
    status_of,
)
from simulator.live.policy import acall_with_retries
from simulator.live.services import LiveServices
from simulator.readers.base import Evidence, ReaderInput
from simulator.readers.chat_clients import GenerationSettings
from simulator.readers.chat_output import OutputMethod, parse_answer
from simulator.readers.chat_prompt import render_messages


class ProbedReader(Protocol):
    """What the preflight needs of a chat reader (simulator/readers/chat.py)."""

    name: str
    provider_name: str
    base_url: str | None
    settings: GenerationSettings
    services: LiveServices

    def runnable(self, method: OutputMethod) -> Any: ...

log = logging.getLogger(__name__)

AUTO_ORDER: tuple[OutputMethod, ...] = ("json_schema", "json_object", "json_prompt")
"""What ``auto`` tries on OpenAI-compatible servers, first accepted wins."""

PREFLIGHT_INPUT = ReaderInput(
    question="How many days does the preflight marker policy allow?",
    answer_format="duration",
    evidence=(Evidence(doc_id="preflight-1", title="Preflight marker policy",
                       status="current", effective_year=2024, version="1",
                       text="The preflight marker policy allows 30 days."),))
"""The one prompt a preflight sends: small, fixed, label-free."""


class PreflightFailed(UsageError):
    """The server or the model did not answer the preflight: one line, exit 2."""


class Preflight(NamedTuple):
    method: OutputMethod
    """The structured-output method the reader uses."""
    verified: bool
    """The server accepted ``method`` (so the run records it); False when every candidate
    failed with a server error: the run goes on (its records will say what happened) and
    probes again when re-run."""


class _Refused(Exception):
    """The server answered this request with a definite refusal (not worth a retry)."""


async def preflight(reader: ProbedReader, recorded: OutputMethod | None = None) -> Preflight:
    """Check that ``reader``'s server and model answer; return the method to use.

    ``recorded`` (the method a resumed run's manifest holds) or an explicit
    ``--structured-output`` is checked alone; ``auto`` on an OpenAI-compatible server
    tries :data:`AUTO_ORDER`. Raises :class:`PreflightFailed` when the server cannot be
    reached, sends something that is not a chat completion, or refuses the key or model;
    a server that answers with errors (HTTP 5xx) is the run's to record, not a preflight
    failure.
    """
    if recorded is not None:
        candidates: tuple[OutputMethod, ...] = (recorded,)
    elif reader.settings.output == "auto" and reader.provider_name == "openai":
        candidates = AUTO_ORDER
    else:
        candidates = (reader.settings.method(reader.provider_name),)
    tried: list[str] = []
    fallback: OutputMethod | None = None
    for method in candidates:
        why = await _try(reader, method)
        if why is None:
            return Preflight(method, True)
        if why == "unparsed":
            fallback = fallback or method
        tried.append(f"{method}: {'the answer did not parse' if why == 'unparsed' else why}")
    if fallback is not None:
        return Preflight(fallback, True)
    log.warning("%s: no structured-output method answered the preflight (%s); using %s, "
                "to be probed again when the run is re-run", reader.name, "; ".join(tried),
                candidates[0])
    return Preflight(candidates[0], False)


async def _try(reader: ProbedReader, method: OutputMethod) -> str | None:
    """None when ``method`` works, ``"unparsed"`` when it answers off-contract, else why
    the server refused it or failed. Raises :class:`PreflightFailed` as described above."""
    svc = reader.services
    messages = render_messages(PREFLIGHT_INPUT)

    async def attempt() -> AIMessage:
        svc.budget.reserve_call()
        svc.stats.add("preflight")
        try:
            return cast(AIMessage, await reader.runnable(method).ainvoke(messages))
        except Exception as exc:
            status = status_of(exc)
            if status is not None and not is_fatal(exc) and (
                    not is_retryable(exc) or status in (500, 501)):
                raise _Refused(describe(exc)) from None
            raise

    try:
        message = await acall_with_retries(attempt, svc.retry, sleep=svc.pause)
    except _Refused as refused:
        return str(refused)
    except Exception as exc:
        if not is_provider_error(exc):
            raise
        if status_of(exc) is not None and not is_fatal(exc):
            return describe(exc)  # the server answers, with errors: the records will say
        where = f" at {reader.base_url}" if reader.base_url else ""
        what = ("refused the key, the account or the model" if is_fatal(exc)
                else "did not answer")
        raise PreflightFailed(f"preflight: {reader.name}{where} {what} ({describe(exc)}); "
                              "nothing was run") from None
    return None if not parse_answer(message, method).reader_error else "unparsed"
