"""Which provider errors are worth another attempt, and how long the server asks us to wait.

One classifier for every provider. LangChain 1.x maps provider errors onto
``langchain_core.exceptions.ModelError`` subclasses that carry ``is_retryable``; the SDKs
underneath (openai 3.x and anthropic 2.x on ``httpx2``, google-genai) and the transports
raise their own types, which are classified by HTTP status or transport kind. A 200 that
is not a usable completion is a :class:`~simulator.live.wire.BrokenResponse` (checked on
the wire), or, for integrations without that check, an error raised inside the provider's
LangChain package or SDK while it read the body. Anything else not recognised as a
provider error is a bug and must propagate, not be recorded.
"""

from __future__ import annotations

import email.utils
import json
import re
import sys
import time
import traceback
from collections.abc import Iterator
from typing import Any

import httpx
import httpx2
from langchain_core.exceptions import ModelError

from simulator.live import secrets
from simulator.live.wire import BrokenResponse

RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 529})
"""Timeouts, conflicts, rate limits and server errors; 529 is Anthropic's "overloaded"."""
FATAL_STATUS = frozenset({401, 403, 404})
"""The key, the account or the model name is wrong: no record can succeed."""

_PROVIDER_PACKAGES = ("openai", "anthropic", "google", "langchain_openai",
                      "langchain_anthropic", "langchain_google_genai")
_READ_ERRORS = (ValueError, TypeError, KeyError, IndexError, AttributeError, StopIteration)
"""What a provider integration raises when a body does not have the shape it expects."""

_TRANSPORT_ERRORS: tuple[type[BaseException], ...] = (
    httpx2.TransportError, httpx.TransportError, TimeoutError, ConnectionError,
)
_SDK_TRANSPORT_ERRORS = ("openai", "anthropic")
"""SDKs whose ``APIConnectionError`` (timeouts included) is a transport error too."""


def _transport_errors() -> tuple[type[BaseException], ...]:
    """The transport error types, the provider SDKs' among them.

    Only SDKs already imported are looked at: an SDK's error cannot be raised before its
    package is, and importing every SDK here cost each live run (and ``layerrag list
    readers``) ~3 s for the providers it never calls.
    """
    sdk_errors = tuple(module.APIConnectionError for name in _SDK_TRANSPORT_ERRORS
                       if (module := sys.modules.get(name)) is not None)
    return _TRANSPORT_ERRORS + sdk_errors


def _chain(error: BaseException) -> Iterator[BaseException]:
    """The error and its explicit causes (LangChain wraps SDK errors with ``raise ... from``).

    Only ``__cause__`` is followed: ``__context__`` may be an unrelated error that was being
    handled when this one was raised.
    """
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__


def status_of(error: BaseException) -> int | None:
    """The HTTP status a provider error carries, if any."""
    for exc in _chain(error):
        for attr in ("status_code", "code"):
            value = getattr(exc, attr, None)
            if isinstance(value, int) and 100 <= value < 600:
                return value
        response = getattr(exc, "response", None)
        value = getattr(response, "status_code", None)
        if isinstance(value, int):
            return value
    return None


def broken_response(error: BaseException) -> BrokenResponse | None:
    """The unusable-response fault behind ``error``, if that is what it is.

    Either a :class:`BrokenResponse` in the cause chain, or a read error (``ValueError``,
    ``TypeError``, ...) raised inside a provider's package: that integration met a body it
    could not read (``Unexpected response type``, no ``choices``), which is the provider's
    fault, not ours. The original's text is dropped: it may quote the body.
    """
    for exc in _chain(error):
        if isinstance(exc, BrokenResponse):
            return exc
    if isinstance(error, json.JSONDecodeError):
        return BrokenResponse("not_json")
    if isinstance(error, _READ_ERRORS) and _raised_in_provider_package(error):
        return BrokenResponse("unreadable", f"the provider's client could not read it "
                                            f"({type(error).__name__})", retryable=True)
    return None


def _raised_in_provider_package(error: BaseException) -> bool:
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return False
    path = frames[-1].filename.replace("\\", "/")
    return any(f"/{package}/" in path for package in _PROVIDER_PACKAGES)


def is_provider_error(error: BaseException) -> bool:
    """True for errors that come from the provider or the network, not from our code."""
    if broken_response(error) is not None:
        return True
    for exc in _chain(error):
        if isinstance(exc, (ModelError, *_transport_errors())):
            return True
        module = type(exc).__module__.split(".")[0]
        if module in ("openai", "anthropic", "google", "langchain_google_genai"):
            return True
    return False


def is_retryable(error: BaseException) -> bool:
    """Rate limits, server errors, timeouts, connection failures and broken bodies."""
    broken = broken_response(error)
    if broken is not None:
        return broken.retryable
    if isinstance(error, ModelError) and error.is_retryable:
        return True
    status = status_of(error)
    if status is not None:
        return status in RETRYABLE_STATUS
    transport = _transport_errors()
    return any(isinstance(exc, transport) for exc in _chain(error))


def is_fatal(error: BaseException) -> bool:
    """The provider rejected the caller or the model, not this one request."""
    return status_of(error) in FATAL_STATUS


def retry_after(error: BaseException, *, now: float | None = None) -> float | None:
    """Seconds the server asked us to wait (``retry-after-ms`` or ``Retry-After``), if any."""
    for exc in _chain(error):
        headers = getattr(getattr(exc, "response", None), "headers", None)
        if headers is None:
            continue
        millis = headers.get("retry-after-ms")
        if millis is not None:
            try:
                return max(float(millis) / 1000, 0.0)
            except ValueError:
                pass
        value = headers.get("retry-after")
        if value is None:
            continue
        try:
            return max(float(value), 0.0)
        except ValueError:
            pass
        try:
            when = email.utils.parsedate_to_datetime(value).timestamp()
        except (TypeError, ValueError):
            continue
        return max(when - (now if now is not None else time.time()), 0.0)
    return None


def describe(error: BaseException) -> str:
    """A short, secret-free description: the error's type, HTTP status and the server's
    own reason (:func:`server_reason`); a broken response: its kind and a fixed reason,
    which quote nothing of the body."""
    broken = broken_response(error)
    if broken is not None:
        return str(broken)
    status = status_of(error)
    head = f"{type(error).__name__} (HTTP {status})" if status else type(error).__name__
    reason = server_reason(error) if status else None
    return f"{head}: {reason}" if reason else head


REASON_CHARS = 200
"""At most this much of a server's reason reaches a record, a log or the console."""
_KEY_LIKE = re.compile(r"\b(sk|key|pk|ak)-[A-Za-z0-9_\-]{12,}|\bAIza[0-9A-Za-z_\-]{20,}")


def server_reason(error: BaseException) -> str | None:
    """The first line of what the server said with its 4xx/5xx (its JSON ``error.message``,
    ``message`` or ``detail``, else the body's text), scrubbed of every key layerrag read
    and of anything shaped like a key, at most :data:`REASON_CHARS` characters. Why it is
    worth quoting: "Input should be 'auto' or a named tool" tells a user what to change on
    their server; "HTTP 500" alone does not (docs/live_models.md)."""
    for exc in _chain(error):
        text = _body_message(getattr(exc, "body", None))
        response = getattr(exc, "response", None)
        if text is None and response is not None:
            try:
                text = _body_message(json.loads(response.text))
            except (ValueError, TypeError, AttributeError, UnicodeDecodeError):
                raw = getattr(response, "text", None)
                text = raw if isinstance(raw, str) else None
        if text and text.strip():
            first = " ".join(text.strip().splitlines()[0].split())
            if first.lstrip().startswith("<"):  # an HTML error page: nothing to quote
                return None
            return _KEY_LIKE.sub(secrets.REDACTED, secrets.scrub(first))[:REASON_CHARS]
    return None


def _body_message(body: Any) -> str | None:
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict):
            for name in ("message", "detail", "msg"):
                if isinstance(inner.get(name), str):
                    return str(inner[name])
        if isinstance(inner, str):
            return inner
        for name in ("message", "detail"):
            if isinstance(body.get(name), str):
                return str(body[name])
    if isinstance(body, str):
        return body
    return None
