"""Live models inside a tool-calling agent: the call discipline lives on the model itself.

The chat model handed to an agent factory in a live run is a copy of the reader's provider
model (``ChatOpenAI``, ``ChatAnthropic``, ...) whose class is a subclass of the provider's
with :class:`DisciplinedChatModel` in front. Every call the agent makes reaches the
provider through ``_agenerate`` / ``_generate``, however the graph is built (``create_agent``,
a hand-built ``StateGraph``, the functional API, a plain loop, ``bind_tools``,
``with_structured_output``), so every call gets what a chat reader's call gets
(simulator/readers/chat.py): the call cache (keyed by the model, base URL, generation
settings and a hash of exactly what is sent: the messages, the tools, ``tool_choice``,
the response format and the tool-call mode), ``--replay`` (a miss stops the run), the call
budget (reserved before each request), retries with the paper's backoff on retryable
errors only, and token and cost accounting. A provider that keeps failing ends the record
as a provider error (:class:`ProviderFailed`), never as a wrong answer; one that refuses
the request (bad key, unknown model) stops the run (simulator/live/discipline.py, shared
with the chat readers).

A subclass, not a wrapper: a wrapper would have to re-implement ``bind_tools`` and
``with_structured_output`` for each provider, and would behave unlike the provider's own
class where it got them wrong. The subclass inherits all of them and only replaces the two
methods every one of them ends in. Streaming is disabled on the copy (``disable_streaming``):
a streamed call would bypass ``_agenerate``, and a recorded call is replayed whole.

The tool-call mode the server accepts (simulator/agents/tool_modes.py) is applied here too,
to calls that force a tool call: such a call is sent with the mode's ``tool_choice``.

The model is shared by every record, so it keeps no per-record state.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from dataclasses import dataclass
from typing import Any, ClassVar

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import BaseMessage, messages_from_dict, messages_to_dict
from langchain_core.outputs import ChatGeneration, ChatResult

from simulator.errors import UsageError
from simulator.live.cache import RecordedCall, call_key
from simulator.live.discipline import ProviderFailed, call_provider
from simulator.live.errors import ReplayMiss
from simulator.live.services import LiveServices

log = logging.getLogger(__name__)

AGENT_CALL_VERSION = "agent-call-3"
"""Part of every agent call's hash: bump when what is hashed changes."""

_ADDRESS = re.compile(r" at 0x[0-9a-f]+")


@dataclass(frozen=True)
class Discipline:
    """Whose calls these are and the run's services that discipline them."""

    model: str
    base_url: str | None
    generation: dict[str, Any]
    services: LiveServices
    provider: type[BaseChatModel]
    """The provider's own chat model class, whose methods make the request."""


def disciplined(chat_model: BaseChatModel, *, model: str, base_url: str | None,
                generation: dict[str, Any], services: LiveServices) -> BaseChatModel:
    """A copy of ``chat_model`` whose every call runs under the run's call discipline."""
    provider = type(chat_model)
    discipline = Discipline(model, base_url, generation, services, provider)
    subclass = type(f"Disciplined{provider.__name__}", (DisciplinedChatModel, provider),
                    {"__module__": __name__,
                     "__annotations__": {"layerrag_discipline": ClassVar[Discipline]},
                     "layerrag_discipline": discipline})
    copy = chat_model.model_copy(update={"disable_streaming": True})
    object.__setattr__(copy, "__class__", subclass)
    return copy


class DisciplinedChatModel:
    """The two methods every call of a LangChain chat model ends in, under the discipline
    (mixed in front of the provider's class by :func:`disciplined`)."""

    layerrag_discipline: ClassVar[Discipline]

    async def _agenerate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                         run_manager: Any = None, **kwargs: Any) -> ChatResult:
        return await self._disciplined(messages, stop, run_manager, kwargs)

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: Any = None, **kwargs: Any) -> ChatResult:
        """A synchronous call (a graph or loop invoked with ``invoke``): it runs on the live
        loop, as every provider call of the run does, while this thread waits for it."""
        from simulator.live.loop import on_live_loop, submit

        if on_live_loop():
            raise UsageError("a live tool-calling agent invoked on the live loop must be "
                             "awaited (ainvoke)")
        return submit(self._disciplined(messages, stop, None, kwargs)).result()

    async def _disciplined(self, messages: list[BaseMessage], stop: list[str] | None,
                           run_manager: Any, kwargs: dict[str, Any]) -> ChatResult:
        """The call's outcome, shared by every identical call of the run (a provider error
        included, see :meth:`LiveServices.share`), else cached, else made."""
        from simulator.agents.tool_modes import with_mode

        d = self.layerrag_discipline
        svc = d.services
        mode = svc.tool_call_mode.get(d.model, "required")
        messages, kwargs = with_mode(messages, kwargs, mode, self._rebound_choice)
        prompt_hash = call_hash(messages, kwargs, stop, mode)
        key = call_key(d.model, d.base_url, prompt_hash, d.generation)
        async with svc.single_flight(key):
            shared = svc.shared_outcome(key)
            if isinstance(shared, ProviderFailed):
                raise ProviderFailed(str(shared))
            if isinstance(shared, RecordedCall):
                svc.stats.add("shared")
                return _replayed(shared)
            if svc.cache is not None:
                recorded = svc.cache.get(key)
                if recorded is not None and recorded.messages is not None:
                    svc.stats.add("cache_hits")
                    return _replayed(recorded)
                if svc.replay:
                    raise ReplayMiss(d.model, prompt_hash, str(svc.cache.path))
            try:
                result = await self._call(messages, stop, run_manager, kwargs)
            except ProviderFailed as failed:
                svc.share(key, failed)
                raise
            if svc.cache is None:
                svc.share(key, _recorded(result))
            else:
                svc.cache.put(key, d.model, prompt_hash, _recorded(result))
            return result

    async def _call(self, messages: list[BaseMessage], stop: list[str] | None,
                    run_manager: Any, kwargs: dict[str, Any]) -> ChatResult:
        """The request itself, by the provider's own class, under retries and the budget."""
        from simulator.live.threads import in_worker_thread

        d = self.layerrag_discipline
        svc = d.services

        async def attempt() -> ChatResult:
            await svc.before_request(d.model)
            if d.provider._agenerate is BaseChatModel._agenerate:  # sync-only provider
                return await in_worker_thread(d.provider._generate, self, messages, stop,
                                              None, **kwargs)
            return await d.provider._agenerate(self, messages, stop, run_manager,  # type: ignore[arg-type]
                                               **kwargs)

        result = await call_provider(svc, d.model, attempt)
        tokens_in, tokens_out = _usage(result)
        svc.budget.add_usage(tokens_in, tokens_out, svc.cost(d.model, tokens_in, tokens_out))
        return result

    def _rebound_choice(self, tools: list[Any], choice: str) -> Any:
        """``choice`` (``"auto"`` or a tool's name) as this provider writes ``tool_choice``."""
        provider: Any = self.layerrag_discipline.provider
        return provider.bind_tools(self, tools, tool_choice=choice).kwargs["tool_choice"]


def call_hash(messages: list[BaseMessage], kwargs: dict[str, Any], stop: list[str] | None,
              mode: str = "required") -> str:
    """A hash of what the model is sent: the messages, the call's keyword arguments (tools,
    ``tool_choice``, response format, ...), the stop words and the tool-call mode
    (simulator/agents/tool_modes.py), so a server restarted with another mode never replays
    the old mode's answers.

    Messages count by what goes on the wire (role, content, tool calls, the id a tool result
    answers), not by the ids and metadata LangChain attaches per run, so the same
    conversation has the same hash in every run.
    """
    wire = [[m.type, m.content, [(c["name"], c["args"], c["id"])
                                 for c in getattr(m, "tool_calls", None) or []],
             getattr(m, "tool_call_id", None)] for m in messages]
    body = json.dumps([AGENT_CALL_VERSION, wire, kwargs, stop, mode], sort_keys=True,
                      default=_jsonable)
    return hashlib.sha256(_ADDRESS.sub("", body).encode()).hexdigest()[:16]


def _jsonable(value: Any) -> Any:
    """A value json cannot write, as a stable description (a schema class by its schema)."""
    schema = getattr(value, "model_json_schema", None)
    if isinstance(value, type) and callable(schema):
        return schema()
    return str(value)


def _usage(result: ChatResult) -> tuple[int, int]:
    usage = [getattr(g.message, "usage_metadata", None) or {} for g in result.generations]
    return (sum(int(u.get("input_tokens", 0)) for u in usage),
            sum(int(u.get("output_tokens", 0)) for u in usage))


def _recorded(result: ChatResult) -> RecordedCall:
    tokens_in, tokens_out = _usage(result)
    return RecordedCall(messages=messages_to_dict([g.message for g in result.generations]),
                        structured=None, input_tokens=tokens_in, output_tokens=tokens_out)


def _replayed(call: RecordedCall) -> ChatResult:
    """A cache hit: the recorded messages, with no usage (nothing is spent twice) and no id
    (LangChain gives each its run's id, so two records never share a message id)."""
    messages: list[BaseMessage] = messages_from_dict(call.messages or [])
    for message in messages:
        message.id = None
        if getattr(message, "usage_metadata", None):
            message.usage_metadata = None  # type: ignore[attr-defined]
    return ChatResult(generations=[ChatGeneration(message=m) for m in messages])
