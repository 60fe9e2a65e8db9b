"""A generic name -> component registry with a helpful unknown-name error.

Faults, scenarios, retrievers, readers, policies and arms are all looked up by name from the
CLI; one registry type gives them all the same "Did you mean ...?" message.
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Callable, Collection, Iterator, Mapping
from typing import Generic, TypeVar

from simulator.errors import UsageError

T = TypeVar("T")


class Registry(Generic[T]):
    """Named components of one kind, in registration order."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._items: dict[str, T] = {}
        self._reserved: set[str] = set()

    def reserve(self, *names: str) -> None:
        """Hold ``names`` for built-ins registered later, on first use (the provider
        prefixes of the chat readers): a plugin taking one is refused when it registers,
        not later, when the built-in arrives."""
        self._reserved.update(names)

    def add(self, name: str, item: T, *, builtin: bool = False) -> T:
        """Register ``item``; ``builtin`` claims a name :meth:`reserve` held."""
        if name in self._items:
            raise ValueError(f"{self.kind} {name!r} is already registered")
        if name in self._reserved and not builtin:
            raise ValueError(f"{self.kind} {name!r} is already registered (built in)")
        self._items[name] = item
        return item

    def register(self, name: str, *, builtin: bool = False) -> Callable[[T], T]:
        """Decorator form of :meth:`add`."""

        def decorate(item: T) -> T:
            return self.add(name, item, builtin=builtin)

        return decorate

    def get(self, name: str) -> T:
        try:
            return self._items[name]
        except KeyError:
            raise UsageError(self.unknown_message(name)) from None

    def unknown_message(self, name: str) -> str:
        close = difflib.get_close_matches(name, self._items, n=1, cutoff=0.5)
        hint = f" Did you mean: {close[0]}?" if close else ""
        return f"Unknown {self.kind} {name!r}.{hint} Known: {', '.join(self._items)}."

    def names(self) -> list[str]:
        return list(self._items)

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)


def check_parameters(kind: str, name: str, factory: Callable[..., object],
                     params: Mapping[str, object]) -> None:
    """Refuse a parameter ``factory`` does not take, with a suggestion, before building."""
    accepted = inspect.signature(factory).parameters
    for given in params:
        if given not in accepted:
            close = difflib.get_close_matches(given, accepted, n=1, cutoff=0.5)
            hint = f" Did you mean: {close[0]}?" if close else ""
            known = ", ".join(accepted) or "none"
            raise UsageError(f"{kind} {name!r} has no parameter {given!r}.{hint} "
                             f"Parameters: {known}.")


def check_choice(kind: str, name: str, param: str, value: object,
                 allowed: Collection[str]) -> str:
    """Refuse a ``param`` value outside ``allowed``, with a suggestion."""
    if value not in allowed:
        close = difflib.get_close_matches(str(value), list(allowed), n=1, cutoff=0.5)
        hint = f" Did you mean: {close[0]}?" if close else ""
        raise UsageError(f"{kind} {name!r}: unknown {param} value {value!r}.{hint} "
                         f"Allowed: {', '.join(allowed)}.")
    return str(value)
