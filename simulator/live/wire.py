"""Check a 200 response before LangChain reads it: is it a chat completion at all?

A proxy's HTML error page, a gateway's ``{"error": ...}`` sent with status 200, a
completion with no choices or a body cut off in transit are not answers. Left to the SDK
and LangChain they surface as ``ValueError``/``TypeError``/``IndexError`` deep in a parser,
indistinguishable from a bug, and some carry the raw body (which may echo the API key) in
their text. Checked here, on the wire, each becomes a :class:`BrokenResponse` with a kind
from :data:`BROKEN_KINDS`, a one-line reason that quotes nothing of the body, and a
decision on whether another attempt may help. The retry policy and the record's
``provider error: ...`` reason then treat it like any other provider error.

The check runs as an ``httpx2`` response hook on the OpenAI-protocol client (OpenAI and
every OpenAI-compatible server); it reads only 200 responses to ``/chat/completions``.
Errors LangChain's Anthropic and Gemini integrations raise while reading a body are caught
by :func:`simulator.live.classify.is_provider_error` instead (by where they were raised).
"""

from __future__ import annotations

import json
from typing import Any

import httpx2

BROKEN_KINDS: dict[str, tuple[str, bool]] = {
    "not_json": ("the body is not JSON (an HTML page or a cut-off body)", True),
    "not_object": ("the body is JSON but not an object", True),
    "no_choices": ("the body has no 'choices' list", True),
    "empty_choices": ("'choices' is empty", True),
    "no_message": ("the first choice has no 'message' object", True),
}
"""kind -> (reason, retryable). Every kind is retryable: a broken body is a property of
the server or a proxy at that moment, not of the request, so the same request may succeed.
Output cut off at the token limit is not a wire fault: it is the model's output, and a
reader error when it holds no answer (simulator/readers/chat_output.py)."""


class BrokenResponse(Exception):
    """A 200 response that is not a usable completion; ``str()`` is a one-line reason."""

    def __init__(self, kind: str, reason: str | None = None,
                 retryable: bool | None = None) -> None:
        known_reason, known_retryable = BROKEN_KINDS.get(kind, (kind, False))
        self.kind = kind
        self.retryable = known_retryable if retryable is None else retryable
        super().__init__(f"unusable response ({kind}): {reason or known_reason}")


def completion_fault(body: bytes) -> str | None:
    """The kind of fault of an OpenAI chat-completion body, or None when it is usable."""
    try:
        value: Any = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return "not_json"
    if not isinstance(value, dict):
        return "not_object"
    choices = value.get("choices")
    if not isinstance(choices, list):
        return "no_choices"
    if not choices:
        return "empty_choices"
    first = choices[0]
    if not isinstance(first, dict) or not isinstance(first.get("message"), dict):
        return "no_message"
    return None


async def check_completion(response: Any) -> None:
    """``httpx2`` response hook: raise :class:`BrokenResponse` for an unusable 200."""
    if response.status_code != 200 or not str(response.request.url.path).endswith(
            "/chat/completions"):
        return
    await response.aread()
    kind = completion_fault(response.content)
    if kind is not None:
        raise BrokenResponse(kind)


def compatible_body(body: bytes) -> bytes | None:
    """A chat-completion request body that the common OpenAI-compatible servers accept, or
    None when ``body`` already is one (or is no JSON object).

    What is changed, and why (docs/live_models.md, "What layerrag sends"):

    - an assistant message that carries tool calls and no text gets ``"content": ""``
      instead of ``null``: LangChain sends null (as OpenAI's API allows), and
      llama-cpp-python's server answers it with HTTP 500. OpenAI, vLLM, Ollama and
      llama.cpp's ``llama-server`` accept the empty string.
    """
    try:
        value = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(value, dict) or not isinstance(value.get("messages"), list):
        return None
    changed = False
    for message in value["messages"]:
        if isinstance(message, dict) and message.get("role") == "assistant" \
                and message.get("tool_calls") and message.get("content") is None:
            message["content"] = ""
            changed = True
    return json.dumps(value).encode() if changed else None


class CompatibleTransport(httpx2.AsyncBaseTransport):
    """An ``httpx2`` async transport that rewrites each chat-completion request with
    :func:`compatible_body` before it is sent (a request hook cannot change a body)."""

    def __init__(self, inner: httpx2.AsyncBaseTransport) -> None:
        self._inner = inner

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        if request.method == "POST" and str(request.url.path).endswith("/chat/completions"):
            fixed = compatible_body(await request.aread())
            if fixed is not None:
                headers = [(k, v) for k, v in request.headers.raw
                           if k.lower() != b"content-length"]
                request = httpx2.Request(request.method, request.url, headers=headers,
                                         content=fixed, extensions=request.extensions)
        return await self._inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self._inner.aclose()


def openai_async_client() -> Any:
    """The OpenAI SDK's default async HTTP client, with :func:`check_completion` hooked in
    and its requests made compatible (:class:`CompatibleTransport`)."""
    import openai
    from openai._constants import DEFAULT_CONNECTION_LIMITS

    transport = CompatibleTransport(httpx2.AsyncHTTPTransport(limits=DEFAULT_CONNECTION_LIMITS))
    return openai.DefaultAsyncHttpxClient(event_hooks={"response": [check_completion]},
                                          transport=transport)
