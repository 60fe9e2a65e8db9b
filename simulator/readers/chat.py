"""Chat-model readers through LangChain: ``openai:M``, ``anthropic:M``, ``google:M``.

One reader per model string, safe to share: all its calls run on the live loop
(:mod:`simulator.live.loop`); ``aread`` is the native form, ``read`` blocks on it. A read
renders the versioned prompt, looks the call up in the
call cache (answering from it when recorded; ``--replay`` allows nothing else), and
otherwise calls the provider under the run's call policy: each request passes the budget
and the rate limiter, retryable errors are retried with linear backoff, and errors that
exhaust the attempts become a ``provider_error`` record (a system outcome), kept apart from
``reader_error`` records (the model answered, but not in the contract's shape).

Registers the ``openai``, ``anthropic`` and ``google`` reader factories on import.
"""

from __future__ import annotations

import logging
import time
from typing import Any, cast

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage

from simulator.errors import UsageError
from simulator.live import loop as live_loop
from simulator.live.cache import RecordedCall, call_key
from simulator.live.discipline import ProviderFailed, call_provider
from simulator.live.errors import ReplayMiss
from simulator.live.secrets import scrub
from simulator.live.services import LiveServices, current_services
from simulator.readers.base import (
    AgentAnswer,
    ReaderInput,
    ReaderResult,
    readers,
    unknown_answer,
)
from simulator.readers.call_metadata import call_config
from simulator.readers.chat_clients import (
    PROVIDERS,
    GenerationSettings,
    api_key,
    build_chat_model,
)
from simulator.readers.chat_output import (
    OutputMethod,
    bind_output,
    names_response_format,
    parse_answer,
)
from simulator.readers.chat_prompt import (
    CASE_TEMPLATE_VERSION,
    TEMPLATE_VERSION,
    render_messages,
    template_version,
)

log = logging.getLogger(__name__)


class ChatReader:
    """A reader backed by one chat model."""

    template_version = TEMPLATE_VERSION
    case_template_version = CASE_TEMPLATE_VERSION
    """The template of a conversation turn's prompt (the cases suite's manifest names it)."""

    def __init__(self, provider: str, model: str, *, chat_model: BaseChatModel,
                 settings: GenerationSettings, base_url: str | None,
                 services: LiveServices) -> None:
        self.name = f"{provider}:{model}"
        self.provider_name = provider
        """The provider as users name it (``openai``, ``anthropic``, ``google``)."""
        self.provider = "openai-compatible" if provider == "openai" and base_url else provider
        self.base_url = base_url
        self.settings = settings
        self.services = services
        self._chat_model = chat_model
        self._method: OutputMethod = cast(OutputMethod, services.structured_output.get(
            self.name, settings.method(provider)))
        self._bound: dict[tuple[OutputMethod, bool], Any] = {}

    @property
    def chat_model(self) -> BaseChatModel:
        """The LangChain chat model behind the reader (a tool-calling agent drives it)."""
        return self._chat_model

    @property
    def output_method(self) -> OutputMethod:
        """The structured-output method in use (it may have fallen back to json_object)."""
        return self._method

    def read(self, item: ReaderInput) -> ReaderResult:
        """Blocking form of :meth:`aread` (the call itself runs on the live loop)."""
        return live_loop.run(self.aread(item))

    async def aread(self, item: ReaderInput) -> ReaderResult:
        """The answer to ``item``: shared within the run, else cached, else called.

        Every read of one prompt in a run gets the same outcome, a provider error included
        (:meth:`LiveServices.share`): the second of two identical reads waits for the
        first (single flight) and takes its outcome, at no cost.
        """
        started = time.perf_counter()
        prompt_hash = item.prompt_hash(template_version(item))
        svc, cache = self.services, self.services.cache
        key = call_key(self.name, self.base_url, prompt_hash, self.settings.model_dump())
        async with svc.single_flight(key):
            shared = svc.shared_outcome(key)
            if isinstance(shared, ReaderResult):
                svc.stats.add("shared")
                return shared.model_copy(update={
                    "input_tokens": 0, "output_tokens": 0, "latency_ms": _ms_since(started),
                    "cost_usd": None if shared.cost_usd is None else 0.0})
            if cache is not None:
                recorded = cache.get(key)
                if recorded is not None and recorded.answer is not None:
                    svc.stats.add("cache_hits")
                    return self._replayed(recorded, prompt_hash, started)
                if svc.replay:
                    raise ReplayMiss(self.name, prompt_hash, str(cache.path))
            result = await self._call(item, prompt_hash, started)
            if result.provider_error or cache is None:
                svc.share(key, result)
            else:
                cache.put(key, self.name, prompt_hash, RecordedCall(
                    answer=result.answer, reader_error=result.reader_error,
                    input_tokens=result.input_tokens, output_tokens=result.output_tokens,
                    cost_usd=result.cost_usd))
            return result

    async def preflight(self, recorded: OutputMethod | None = None) -> OutputMethod:
        """Check the server answers; fix (and return) the structured-output method.

        See :mod:`simulator.readers.chat_probe`; ``recorded`` is a resumed run's method.
        A method the server accepted becomes the run's (``services.structured_output``,
        which the manifest records).
        """
        from simulator.readers.chat_probe import preflight

        found = await preflight(self, recorded)
        self._method = found.method
        if found.verified:
            self.services.structured_output[self.name] = found.method
        return found.method

    def _replayed(self, call: RecordedCall, prompt_hash: str, started: float) -> ReaderResult:
        """A cache hit costs nothing: no tokens, no cost, nothing counted twice."""
        if call.reader_error:
            self.services.stats.add("reader_errors")
        assert call.answer is not None  # aread replays only calls that hold an answer
        return ReaderResult(answer=call.answer, prompt_hash=prompt_hash,
                            reader_error=call.reader_error, input_tokens=0, output_tokens=0,
                            cost_usd=0.0, latency_ms=_ms_since(started))

    async def _call(self, item: ReaderInput, prompt_hash: str, started: float) -> ReaderResult:
        messages = render_messages(item)
        case = item.conversation is not None
        svc = self.services
        try:
            message, method = await call_provider(svc, self.name,
                                                  lambda: self._request(messages, case))
        except ProviderFailed as failed:
            return ReaderResult(answer=unknown_answer(str(failed)), prompt_hash=prompt_hash,
                                provider_error=True, latency_ms=_ms_since(started))
        usage: dict[str, Any] = dict(message.usage_metadata or {})
        tokens_in = int(usage.get("input_tokens", 0))
        tokens_out = int(usage.get("output_tokens", 0))
        cost = svc.cost(self.name, tokens_in, tokens_out)
        svc.budget.add_usage(tokens_in, tokens_out, cost)
        # a reply cut off at the token limit before it held an answer is the model's
        # output at this run's --max-output-tokens, and unparseable: a reader error, since
        # the same request is cut the same way every time it is sent (a provider error
        # would be re-sent on every resume and never settle)
        parsed = parse_answer(message, method, case=case)
        if parsed.reader_error:
            svc.stats.add("reader_errors")
        return ReaderResult(answer=scrubbed(parsed.answer), prompt_hash=prompt_hash,
                            reader_error=parsed.reader_error, input_tokens=tokens_in,
                            output_tokens=tokens_out, cost_usd=cost,
                            latency_ms=_ms_since(started))

    async def _request(self, messages: list[BaseMessage], case: bool = False
                       ) -> tuple[AIMessage, OutputMethod]:
        """One attempt: a request, plus one json_object request if json_schema is refused
        (``case``: a conversation turn's contract)."""
        method = self._method
        await self.services.before_request(self.name)
        try:
            return (await self._runnable(method, case).ainvoke(messages, call_config()),
                    method)
        except Exception as exc:
            if method != "json_schema" or not names_response_format(exc):
                raise
        if self._method != "json_object":
            log.warning("%s: the server refused response_format json_schema; using "
                        "json_object", self.name)
            self._method = "json_object"
        await self.services.before_request(self.name)
        return (await self._runnable("json_object", case).ainvoke(messages, call_config()),
                "json_object")

    def runnable(self, method: OutputMethod) -> Any:
        """The chat model bound to answer through ``method`` (built once per method)."""
        return self._runnable(method)

    def _runnable(self, method: OutputMethod, case: bool = False) -> Any:
        if (method, case) not in self._bound:
            self._bound[method, case] = bind_output(self._chat_model, method, case=case)
        return self._bound[method, case]


def scrubbed(answer: AgentAnswer) -> AgentAnswer:
    """``answer`` with any known API key replaced by ``[key]``: a server or model that
    echoes the key must not put it in a record (simulator/live/secrets.py)."""
    fields = {"answer": answer.answer, "reason": answer.reason}
    clean: dict[str, object] = {k: scrub(v) for k, v in fields.items()
                                if v is not None and scrub(v) != v}
    citations = tuple(scrub(c) for c in answer.citations)
    if citations != answer.citations:
        clean["citations"] = citations
    return answer.model_copy(update=clean) if clean else answer


def _ms_since(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)


def build_chat_reader(provider: str, model: str, *, base_url: str | None = None,
                      generation: dict[str, Any] | None = None,
                      services: LiveServices | None = None) -> ChatReader:
    """A chat reader for ``provider:model``; checks the key now, calls nothing."""
    full = f"{provider}:{model}"
    if not model.strip():
        raise UsageError(f"{full}: name a model after '{provider}:', e.g. {provider}:MODEL")
    services = services or current_services()
    settings = GenerationSettings.parse(generation or {}, full)
    key = api_key(provider, full, base_url=base_url, required=not services.replay)
    chat_model = build_chat_model(provider, model, key=key, base_url=base_url,
                                  settings=settings, timeout_s=services.timeout_s,
                                  rate_limiter=services.rate_limiter(full))
    return ChatReader(provider, model, chat_model=chat_model, settings=settings,
                      base_url=base_url, services=services)


def _factory(provider: str) -> Any:
    def factory(model: str, *, base_url: str | None = None,
                generation: dict[str, Any] | None = None) -> ChatReader:
        return build_chat_reader(provider, model, base_url=base_url, generation=generation)

    factory.__doc__ = f"Reader for ``{provider}:MODEL``."
    return factory


for _provider in PROVIDERS:
    readers.add(_provider, _factory(_provider), builtin=True)
