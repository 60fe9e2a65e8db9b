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


def openai_async_client() -> Any:
    """The OpenAI SDK's default async HTTP client, with :func:`check_completion` hooked in."""
    import openai

    return openai.DefaultAsyncHttpxClient(event_hooks={"response": [check_completion]})
