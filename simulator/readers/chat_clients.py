"""Build LangChain chat models for the live providers, with keys from the environment.

``openai:M`` (also any OpenAI-compatible server via a base URL), ``anthropic:M`` and
``google:M``. :data:`PROVIDERS` says, per provider name a user types, which LangChain
provider ``init_chat_model`` builds (users type ``google``, LangChain says ``google_genai``),
which environment variables hold its key and how it answers in structure by default. The
provider is always named, never inferred from the model name, so a model named like
``qwen2.5:7b`` or ``gemini-...`` reaches the server as typed. Provider SDK
retries are off (``max_retries=0``): the call policy in :mod:`simulator.live.policy` is the
only retry loop. A missing key is a one-line :class:`~simulator.errors.UsageError` when the
reader is built, before any call; a server given by base URL may run without one (a
placeholder is sent). Keys live only inside the client objects: no error message, log line,
manifest, store or cache ever contains one.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import urlsplit

from langchain_core.language_models import BaseChatModel
from langchain_core.rate_limiters import BaseRateLimiter
from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError

from simulator.errors import UsageError
from simulator.live import secrets
from simulator.readers.chat_output import OutputMethod


@dataclass(frozen=True)
class Provider:
    """A provider as users name it, and what building its client needs."""

    langchain_name: str
    """``init_chat_model``'s ``model_provider``."""
    key_variables: tuple[str, ...]
    """Environment variables holding the key, the first set one wins."""
    default_output: OutputMethod
    """The structured-output method ``--structured-output auto`` picks."""


PROVIDERS: dict[str, Provider] = {
    "openai": Provider("openai", ("OPENAI_API_KEY",), "json_schema"),
    "anthropic": Provider("anthropic", ("ANTHROPIC_API_KEY",), "tool"),
    "google": Provider("google_genai", ("GOOGLE_API_KEY", "GEMINI_API_KEY"), "tool"),
}
PLACEHOLDER_KEY = "layerrag-no-key"
"""Sent to servers given by base URL when no key is set (local servers ignore it)."""


class GenerationSettings(BaseModel):
    """Settings that change what a model answers; part of the run id and the cache key."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    max_output_tokens: int = Field(default=600, ge=1)
    temperature: float | None = Field(default=None, ge=0)
    """None: the provider's default, as in the paper."""
    output: Literal["auto", "json_schema", "json_object", "tool", "json_prompt"] = "auto"
    """Structured-output method; ``auto``: a tool call for Anthropic and Gemini, and for
    OpenAI-compatible servers the first method the server accepts (found by the run's
    preflight, recorded in its manifest; json_schema when no preflight ran)."""

    tool_choice: Literal["detect", "required", "auto", "named"] = Field(default="detect",
                                                                        exclude=True)
    """How a live tool-calling agent's model is asked for tool calls
    (simulator/agents/tool_modes.py); ``detect``: the first mode the server accepts. Not
    in the dump: the mode used is part of every agent call's key, and a reader never uses
    it (the run id has it when given: simulator/cli/live_options.py)."""

    @classmethod
    def parse(cls, generation: dict[str, Any], model: str) -> GenerationSettings:
        try:
            return cls.model_validate(generation)
        except ValidationError as exc:
            err = exc.errors()[0]
            field = ".".join(map(str, err["loc"])) or "generation"
            raise UsageError(f"{model}: generation setting {field}: {err['msg']}") from None

    def method(self, provider: str) -> OutputMethod:
        return PROVIDERS[provider].default_output if self.output == "auto" else self.output


def api_key(provider: str, model: str, *, base_url: str | None, required: bool) -> SecretStr:
    """The provider's key from the environment, a placeholder, or a one-line UsageError."""
    for variable in PROVIDERS[provider].key_variables:
        value = os.environ.get(variable, "").strip()
        if value:
            secrets.remember(value)
            return SecretStr(value)
    if base_url is not None or not required:
        return SecretStr(PLACEHOLDER_KEY)
    names = " or ".join(PROVIDERS[provider].key_variables)
    hint = " (or pass --base-url for a local OpenAI-compatible server)" \
        if provider == "openai" else ""
    raise UsageError(f"{model}: set {names} in the environment{hint}")


def openai_base_url(base_url: str) -> str:
    """``http://host:8000`` -> ``http://host:8000/v1``; a URL with a path is kept as is."""
    parts = urlsplit(base_url)
    if not parts.scheme or not parts.netloc:
        raise UsageError(f"--base-url {base_url!r}: expected a URL like http://127.0.0.1:8000/v1")
    return base_url.rstrip("/") + "/v1" if parts.path in ("", "/") else base_url.rstrip("/")


def build_chat_model(provider: str, name: str, *, key: SecretStr, base_url: str | None,
                     settings: GenerationSettings, timeout_s: float,
                     rate_limiter: BaseRateLimiter | None = None) -> BaseChatModel:
    """The LangChain client for one model, by ``init_chat_model``; no request is made here.

    ``rate_limiter`` is acquired by the client before each request it sends.
    """
    from langchain.chat_models import init_chat_model  # imports the provider's package

    from simulator.live.wire import openai_async_client

    spec = PROVIDERS.get(provider)
    if spec is None:
        raise UsageError(f"unknown provider {provider!r}; known: {', '.join(PROVIDERS)}")
    kwargs: dict[str, Any] = {"api_key": key, "timeout": timeout_s, "max_retries": 0,
                              "rate_limiter": rate_limiter}
    if settings.temperature is not None:
        kwargs["temperature"] = settings.temperature
    if provider == "openai":
        kwargs["use_responses_api"] = False  # pins /v1/chat/completions
        kwargs["http_async_client"] = openai_async_client()  # checks every 200's shape
    if provider == "openai" and base_url is not None:
        # ChatOpenAI sends max_tokens as max_completion_tokens; local servers want this.
        kwargs["base_url"] = openai_base_url(base_url)
        kwargs["extra_body"] = {"max_tokens": settings.max_output_tokens}
    else:
        kwargs["max_tokens"] = settings.max_output_tokens
        if base_url is not None:
            kwargs["base_url"] = base_url
    try:
        return init_chat_model(name, model_provider=spec.langchain_name, **kwargs)
    except ImportError as exc:  # the provider's LangChain package is not installed
        raise UsageError(f"{provider}:{name}: {str(exc).splitlines()[0]}") from None
