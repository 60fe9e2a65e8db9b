"""Plugins: components registered from outside the package, by entry point or by module.

A plugin is an importable module whose decorators register components with the same
registries the built-ins use (``@fault``, ``@policy``, ``middleware.scenarios.add_scenario``,
``readers.add``, ``agents.add``). layerrag finds plugins two ways:

- **installed**: a distribution declares an entry point in one of :data:`ENTRY_POINT_GROUPS`
  (``[project.entry-points."layerrag.faults"] mine = "my_package.faults"``); the value names
  a module (or an object in one: loading it imports the module, which is what registers);
- **local**: ``--plugin MODULE`` on the commands that resolve names (``run``,
  ``study focused``, ``credit``, ``list``), imported with the current directory on the path,
  as ``python -m`` would.

:func:`load_plugins` is called once before any name is resolved; a second call with the
same modules does nothing, so a module is never imported (and its components never
registered) twice. This module imports nothing of layerrag's beyond the error type, so
loading plugins costs only what the plugins themselves import.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from importlib.metadata import EntryPoint, entry_points

from simulator.errors import UsageError

ENTRY_POINT_GROUPS: tuple[str, ...] = (
    "layerrag.faults", "layerrag.policies", "layerrag.scenarios", "layerrag.readers",
    "layerrag.agents",
)
"""The entry-point groups layerrag loads, one per kind of component a plugin may add."""

_loaded: dict[str, str] = {}
"""What has been loaded: ``group:name`` of an entry point, or ``module:NAME`` of a
``--plugin``, -> the module or object it named."""


def load_plugins(modules: Sequence[str] = (), *,
                 discover: Callable[[str], Iterable[EntryPoint]] | None = None
                 ) -> dict[str, str]:
    """Load every installed entry point of :data:`ENTRY_POINT_GROUPS`, then ``modules``.

    ``discover`` returns a group's entry points (default: :func:`importlib.metadata.
    entry_points`); tests pass their own. Returns what is loaded so far. An entry point or
    module that fails to import is a :class:`UsageError` naming it, never a traceback.
    """
    find = discover or (lambda group: entry_points(group=group))
    for group in ENTRY_POINT_GROUPS:
        for point in find(group):
            key = f"{group}:{point.name}"
            if key in _loaded:
                continue
            try:
                point.load()
            except Exception as exc:  # a broken plugin is the user's to fix: say which
                raise UsageError(f"plugin entry point {point.name!r} in group {group!r} "
                                 f"({point.value}) failed to load: {exc}") from None
            _loaded[key] = point.value
    for module in modules:
        key = f"module:{module}"
        if key in _loaded:
            continue
        _import_local(module)
        _loaded[key] = module
    return dict(_loaded)


def _import_local(module: str) -> None:
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        importlib.import_module(module)
    except ImportError as exc:
        if exc.name is not None and module.startswith(exc.name):
            raise UsageError(f"--plugin {module!r}: cannot import it ({exc}); name a module "
                             "importable from the current directory, e.g. "
                             "examples.plugin") from None
        raise UsageError(f"--plugin {module!r} failed to load: {exc}") from None
    except UsageError as exc:
        raise UsageError(f"--plugin {module!r}: {exc}") from None
    except ValueError as exc:  # e.g. a component registered twice
        raise UsageError(f"--plugin {module!r}: {exc}") from None

