"""The LLM judge: one call per turn, strict JSON, bounded retries, and it fails closed.

``--judge openai:MODEL`` (or ``anthropic:``, ``google:``, any ``--base-url`` server) is built
as a reader model is (simulator/readers/chat_clients.py: keys from the environment only, the
provider named, SDK retries off) and called under the same discipline
(simulator/live/discipline.py: the retry policy for transient errors, a refusal stops the
command, the call budget and rate limit on every request). The paper's settings are fixed:
temperature 0, top_p 1 (left to the provider on Anthropic, whose current models refuse
temperature and top_p together), at most 1,024 output tokens.

A reply that breaks the contract (simulator/judge/llm_output.py) is retried with the reason
told to the model, at most ``attempts`` times in all; then the record is **unjudged**, with
the last reason, counted in its own column and never averaged in. A provider failure after
the policy's retries is unjudged too, and is tried again when the command is re-run.

Calls are recorded in the call cache under a key of their own (the judge's name, the base
URL, the prompt hash and the settings), so a re-run, a resume and ``--replay`` answer from
it; the judge's spend is counted on its own budget and ledger, apart from the agent's.
"""

from __future__ import annotations

import functools
import logging
import time
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from simulator.errors import UsageError
from simulator.judge.llm_output import (
    JudgeOutputMethod,
    bind_judge_output,
    judgment_schema,
    parse_judgment,
    scores_from,
)
from simulator.judge.llm_prompt import PROMPT_VERSION, JudgeInput, render_messages
from simulator.judge.metrics import rubric_hash
from simulator.judge.model import Judgment
from simulator.live.cache import RecordedCall, call_key
from simulator.live.discipline import ProviderFailed, call_provider
from simulator.live.errors import ReplayMiss
from simulator.live.secrets import scrub
from simulator.live.services import LiveServices
from simulator.readers.chat import ChatReader, build_chat_reader
from simulator.readers.chat_clients import PROVIDERS
from simulator.readers.chat_output import names_response_format

log = logging.getLogger(__name__)

JUDGE_SETTINGS: dict[str, Any] = {"max_output_tokens": 1024, "temperature": 0.0}
TOP_P = 1.0
DEFAULT_ATTEMPTS = 3
"""Requests per record for a malformed reply: the first and two retries."""
LLM_RUBRIC_HASH = rubric_hash(PROMPT_VERSION)
PROVIDER_ERROR = "judge provider error"
"""How an unjudged reason begins when the provider failed: a re-run tries it again."""
_FALLBACK: dict[str, JudgeOutputMethod] = {"json_schema": "json_object",
                                           "json_object": "json_prompt"}


def parse_judge_spec(spec: str) -> tuple[str, str]:
    """``openai:MODEL`` -> (provider, model), or a one-line UsageError."""
    provider, sep, model = spec.partition(":")
    if not sep or provider not in PROVIDERS or not model.strip():
        raise UsageError(f"--judge {spec!r}: expected deterministic or PROVIDER:MODEL with "
                         f"PROVIDER one of {', '.join(PROVIDERS)} (e.g. openai:gpt-4o-mini)")
    return provider, model


class LLMJudge:
    """A judge backed by one chat model; safe to share across concurrent records."""

    def __init__(self, spec: str, *, services: LiveServices, base_url: str | None = None,
                 output: str = "auto", attempts: int = DEFAULT_ATTEMPTS) -> None:
        provider, model = parse_judge_spec(spec)
        if attempts < 1:
            raise UsageError(f"--judge-attempts must be at least 1, got {attempts}")
        self.name = spec
        self.base_url = base_url
        self.services = services
        self.attempts = attempts
        self.rubric_hash = LLM_RUBRIC_HASH
        self.reader: ChatReader = build_chat_reader(
            provider, model, base_url=base_url, services=services,
            generation={**JUDGE_SETTINGS, "output": output})
        chat_model = self.reader.chat_model
        if provider != "anthropic":
            chat_model = chat_model.model_copy(update={"top_p": TOP_P})
        self._chat_model = chat_model
        self._method: JudgeOutputMethod = self.reader.output_method  # type: ignore[assignment]
        self._bound: dict[tuple[str, str], Any] = {}
        self._preflighted = False
        self._settings = {**self.reader.settings.model_dump(), "top_p": TOP_P,
                          "attempts": attempts}

    @property
    def output_method(self) -> JudgeOutputMethod:
        return self._method

    async def preflight(self) -> JudgeOutputMethod:
        """The reader preflight (simulator/readers/chat_probe.py): the server answers, and
        the structured-output method it accepts becomes the judge's."""
        if not self._preflighted:
            self._method = await self.reader.preflight()  # type: ignore[assignment]
            self._preflighted = True
        return self._method

    def cache_key(self, item: JudgeInput) -> str:
        return call_key(f"judge:{self.name}", self.base_url, item.prompt_hash(),
                        self._settings)

    def _judged(self, key: str, item: JudgeInput, value: Any) -> Judgment | None:
        scores, _ = scores_from(value, item.not_applicable)
        if scores is None:
            return None
        return Judgment(key=key, judge=self.name, rubric_hash=self.rubric_hash,
                        status="judged", scores=scores)

    def unjudged(self, key: str, reason: str) -> Judgment:
        return Judgment(key=key, judge=self.name, rubric_hash=self.rubric_hash,
                        status="unjudged", reason=scrub(reason))

    async def ajudge(self, key: str, item: JudgeInput) -> Judgment:
        """The judgment of one record: recorded, else called (see the module docstring).
        Identical prompts in flight at once (strict and repair with the same evidence)
        cost one call: the second waits for the first and finds its recorded reply."""
        async with self.services.single_flight(self.cache_key(item)):
            return await self._ajudge(key, item)

    async def _ajudge(self, key: str, item: JudgeInput) -> Judgment:
        svc, cache = self.services, self.services.cache
        ckey = self.cache_key(item)
        if cache is not None:
            recorded = cache.get(ckey)
            if recorded is not None:
                svc.stats.add("judge_cache_hits")
                if recorded.reader_error:
                    return self.unjudged(key, recorded.note or "malformed judge output")
                judged = self._judged(key, item, recorded.structured)
                if judged is not None:
                    return judged
            if svc.replay:
                raise ReplayMiss(self.name, item.prompt_hash(), str(cache.path), key)
        messages = render_messages(item)
        why = "no reply"
        for attempt in range(1, self.attempts + 1):
            try:
                message, method = await call_provider(
                    svc, self.name, functools.partial(self._request, messages, item))
            except ProviderFailed as failed:
                return self.unjudged(key, f"{PROVIDER_ERROR}: {failed}")
            self._account(message)
            scores, why_not = parse_judgment(message, method, item.not_applicable)
            if scores is not None:
                value = {**{f"{m}_score": s.value for m, s in scores.items()},
                         **{f"{m}_justification": scrub(s.justification)
                            for m, s in scores.items()}}
                if cache is not None:
                    cache.put(ckey, f"judge:{self.name}", item.prompt_hash(),
                              RecordedCall(structured=value))
                judged = self._judged(key, item, value)
                assert judged is not None  # value was built from parsed scores
                return judged
            why = why_not or "malformed"
            svc.stats.add("judge_malformed")
            log.info("%s: malformed judgment for %s (attempt %d of %d): %s", self.name, key,
                     attempt, self.attempts, why)
            messages = [*render_messages(item), AIMessage(message.text or ""),
                        HumanMessage(f"Your reply was not a valid judgment: {why}. Reply "
                                     "with the JSON object only, with every key.")]
        reason = f"malformed judge output after {self.attempts} attempts: {why}"
        if cache is not None:
            cache.put(ckey, f"judge:{self.name}", item.prompt_hash(),
                      RecordedCall(reader_error=True, note=reason))
        return self.unjudged(key, reason)

    def _account(self, message: AIMessage) -> None:
        usage: dict[str, Any] = dict(message.usage_metadata or {})
        tokens_in = int(usage.get("input_tokens", 0))
        tokens_out = int(usage.get("output_tokens", 0))
        cost = self.services.cost(self.name, tokens_in, tokens_out)
        self.services.budget.add_usage(tokens_in, tokens_out, cost)

    async def _request(self, messages: list[BaseMessage], item: JudgeInput
                       ) -> tuple[AIMessage, JudgeOutputMethod]:
        """One attempt; a server refusing this ``response_format`` (HTTP 400 naming it)
        moves the judge to the next method: json_schema, json_object, json_prompt."""
        while True:
            method = self._method
            await self.services.before_request(self.name)
            started = time.perf_counter()
            try:
                reply = await self._runnable(method, item).ainvoke(messages)
            except Exception as exc:
                following = _FALLBACK.get(method)
                if following is None or not names_response_format(exc):
                    raise
                log.warning("%s: the server refused response_format %s; using %s",
                            self.name, method, following)
                self._method = following
                continue
            self.services.stats.add("judge_ms", round((time.perf_counter() - started) * 1000))
            return reply, method

    def _runnable(self, method: JudgeOutputMethod, item: JudgeInput) -> Any:
        na = ",".join(item.not_applicable)
        if (method, na) not in self._bound:
            self._bound[(method, na)] = bind_judge_output(
                self._chat_model, method, judgment_schema(item.not_applicable))
        return self._bound[(method, na)]
