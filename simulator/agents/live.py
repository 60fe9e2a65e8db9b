"""Live models inside a tool-calling agent: every model call under the run's call discipline.

:class:`LiveCallMiddleware` wraps each model call the agent makes (``awrap_model_call``) with
what a chat reader's call gets in a live run (simulator/readers/chat.py): the call cache
(keyed by the model, base URL, generation settings and a hash of exactly what is sent: the
system prompt, the messages, the tools and the response format), ``--replay`` (a miss
stops the run), the call budget (reserved before each request), retries with the paper's
backoff on retryable errors only, and token and cost accounting. A provider that keeps
failing ends the record as a provider error (:class:`ProviderFailed`), never as a
wrong answer; one that refuses the request (bad key, unknown model) stops the run
(simulator/live/discipline.py, shared with the chat readers).

The compiled agent is shared by every record, so the middleware keeps no per-record state.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from langchain.agents.middleware import AgentMiddleware, ModelRequest, ModelResponse
from langchain_core.messages import BaseMessage, messages_from_dict, messages_to_dict

from simulator.agents.answer import FinalAnswer
from simulator.errors import UsageError
from simulator.live.cache import RecordedCall, call_key
from simulator.live.discipline import ProviderFailed, call_provider
from simulator.live.errors import ReplayMiss
from simulator.live.services import LiveServices

log = logging.getLogger(__name__)

AGENT_CALL_VERSION = "agent-call-2"
"""Part of every agent call's hash: bump when what is hashed changes."""

Handler = Callable[[ModelRequest], Awaitable[ModelResponse]]


class LiveCallMiddleware(AgentMiddleware):
    """The live call discipline around every model call of a tool-calling agent."""

    def __init__(self, model: str, *, base_url: str | None, generation: dict[str, Any],
                 services: LiveServices) -> None:
        super().__init__()
        self.model, self.base_url = model, base_url
        self.generation, self.services = generation, services

    def wrap_model_call(self, request: ModelRequest, handler: Any) -> Any:
        """The same discipline for a graph invoked synchronously (a user middleware with
        only sync hooks; simulator/agents/preflight.py): the call runs on the live loop,
        as every provider call of the run does, while this worker thread waits for it."""
        from simulator.live.loop import on_live_loop, submit
        from simulator.live.threads import in_worker_thread

        if on_live_loop():
            raise UsageError("a live tool-calling agent invoked on the live loop must be "
                             "awaited (ainvoke)")

        async def sent(req: ModelRequest) -> ModelResponse:
            response: ModelResponse = await in_worker_thread(handler, req)
            return response

        return submit(self.awrap_model_call(request, sent)).result()

    async def awrap_model_call(self, request: ModelRequest, handler: Handler) -> ModelResponse:
        """The call's outcome, shared by every identical call of the run (a provider
        error included, see :meth:`LiveServices.share`), else cached, else made."""
        from simulator.agents.tool_modes import with_mode

        svc = self.services
        mode = svc.tool_call_mode.get(self.model, "required")
        request = with_mode(request, mode)
        prompt_hash = request_hash(request, mode)
        key = call_key(self.model, self.base_url, prompt_hash, self.generation)
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
                    raise ReplayMiss(self.model, prompt_hash, str(svc.cache.path))
            try:
                response = await self._call(request, handler)
            except ProviderFailed as failed:
                svc.share(key, failed)
                raise
            if svc.cache is None:
                svc.share(key, _recorded(response))
            else:
                svc.cache.put(key, self.model, prompt_hash, _recorded(response))
            return response

    async def _call(self, request: ModelRequest, handler: Handler) -> ModelResponse:
        svc = self.services

        async def attempt() -> ModelResponse:
            await svc.before_request(self.model)
            return await handler(request)

        response = await call_provider(svc, self.model, attempt)
        tokens_in, tokens_out = _usage(response)
        svc.budget.add_usage(tokens_in, tokens_out, svc.cost(self.model, tokens_in, tokens_out))
        return response


def request_hash(request: ModelRequest, mode: str = "required") -> str:
    """A hash of what the model is sent: system prompt, messages, tools (their schemas),
    response format, and the tool-call mode (simulator/agents/tool_modes.py), so a server
    restarted with another mode never replays the old mode's answers.

    Messages count by what goes on the wire (role, content, tool calls, the id a tool result
    answers), not by the ids and metadata LangChain attaches per run, so the same
    conversation has the same hash in every run.
    """
    system = request.system_message.content if request.system_message is not None else None
    tools = sorted(json.dumps(_schema(t), sort_keys=True, default=str)
                   for t in request.tools or [])
    wire = [[m.type, m.content, [(c["name"], c["args"], c["id"])
                                 for c in getattr(m, "tool_calls", None) or []],
             getattr(m, "tool_call_id", None)] for m in request.messages]
    body = json.dumps([AGENT_CALL_VERSION, system, wire, tools,
                       type(request.response_format).__name__, mode], sort_keys=True,
                      default=str)
    return hashlib.sha256(body.encode()).hexdigest()[:16]


def _schema(tool: Any) -> Any:
    """A tool as the provider sees it (name, description, parameters)."""
    from langchain_core.utils.function_calling import convert_to_openai_tool

    try:
        return convert_to_openai_tool(tool)
    except (TypeError, ValueError):
        return getattr(tool, "name", None) or str(tool)


def _usage(response: ModelResponse) -> tuple[int, int]:
    usage = [getattr(m, "usage_metadata", None) or {} for m in response.result]
    return (sum(int(u.get("input_tokens", 0)) for u in usage),
            sum(int(u.get("output_tokens", 0)) for u in usage))


def _recorded(response: ModelResponse) -> RecordedCall:
    structured = response.structured_response
    tokens_in, tokens_out = _usage(response)
    return RecordedCall(
        messages=messages_to_dict(list(response.result)),
        structured=structured.model_dump() if isinstance(structured, FinalAnswer) else None,
        input_tokens=tokens_in, output_tokens=tokens_out)


def _replayed(call: RecordedCall) -> ModelResponse:
    """A cache hit: the recorded messages, with no usage (nothing is spent twice)."""
    messages: list[BaseMessage] = messages_from_dict(call.messages or [])
    for message in messages:
        if getattr(message, "usage_metadata", None):
            message.usage_metadata = None  # type: ignore[attr-defined]
    structured = FinalAnswer.model_validate(call.structured) if call.structured else None
    return ModelResponse(result=messages, structured_response=structured)
