"""Resolve a ``--model`` string to a reader: ``deterministic`` or ``provider:model``."""

from __future__ import annotations

from typing import Any

from simulator.readers import deterministic  # noqa: F401  (registers "deterministic")
from simulator.readers.base import Reader, readers


def split_model(model: str) -> tuple[str, str]:
    """``openai:gpt-4o`` -> (``openai``, ``gpt-4o``); a bare name is its own provider key."""
    provider, sep, name = model.partition(":")
    return (provider, name) if sep else (model, model)


def load_live_readers() -> None:
    """Register the provider prefixes (openai, anthropic, ...) when their module is there."""
    try:
        import simulator.readers.chat  # noqa: F401  (registers the provider prefixes)
    except ModuleNotFoundError as exc:
        if exc.name != "simulator.readers.chat":
            raise


def resolve_reader(model: str, *, base_url: str | None = None,
                   generation: dict[str, Any] | None = None, check_only: bool = False
                   ) -> Reader:
    """Build the reader for ``model`` (or only check that its name resolves). The provider
    prefixes are loaded only for a name not yet registered: checking ``deterministic``
    costs no LangChain import (the CLI checks names before its start line)."""
    key, name = split_model(model)
    if key not in readers:
        load_live_readers()
    factory = readers.get(key)
    if check_only:
        return None  # type: ignore[return-value]
    if key == "deterministic":
        return factory(name)
    return factory(name, base_url=base_url, generation=generation or {})  # type: ignore[call-arg]

