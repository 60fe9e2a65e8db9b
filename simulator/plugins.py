"""Plugins: components registered from outside the package, by entry point or by module.

A plugin is an importable module whose decorators register components with the same
registries the built-ins use (``@fault``, ``@policy``, ``middleware.scenarios.add_scenario``,
``readers.add``, ``agents.add``). layerrag finds plugins two ways:

- **installed**: a distribution declares an entry point in one of :data:`ENTRY_POINT_GROUPS`
  (``[project.entry-points."layerrag.faults"] mine = "my_package.faults"``); the value names
  a module (or an object in one: loading it imports the module, which is what registers);
- **local**: ``--plugin MODULE`` on the commands that resolve names (``run``,
  ``study focused``, ``credit``, ``list``), imported with the current directory on the path,
  as ``python -m`` would; or ``--plugin PATH.py``, a file path (relative paths are resolved
  against the current directory), imported from that file. Any other path (``../x``, a
  directory) is refused: a module name has no slashes.

Whatever a plugin does wrong at import time (raises, has a syntax error, calls
``sys.exit``, registers a name some component already has) is one
:class:`~simulator.errors.UsageError` line naming the plugin and the cause; only an
interrupt passes through.

:func:`load_plugins` is called once before any name is resolved; a second call with the
same modules does nothing, so a module is never imported (and its components never
registered) twice. This module imports nothing of layerrag's beyond the error type, so
loading plugins costs only what the plugins themselves import.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

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
            except (Exception, SystemExit) as exc:  # the user's to fix: say which
                raise UsageError(f"plugin entry point {point.name!r} in group {group!r} "
                                 f"({point.value}) failed to load: {cause(exc)}") from None
            _loaded[key] = point.value
    for module in modules:
        key = f"module:{module}"
        if key in _loaded:
            continue
        _import_local(module)
        _loaded[key] = module
    return dict(_loaded)


def cause(exc: BaseException) -> str:
    """One line saying what went wrong at a plugin's import, with the exception's kind."""
    if isinstance(exc, SystemExit):
        return f"it called sys.exit({exc.code!r}) while being imported"
    if isinstance(exc, SyntaxError):
        where = f" ({Path(exc.filename).name}, line {exc.lineno})" if exc.filename else ""
        return f"SyntaxError: {exc.msg}{where}"
    if isinstance(exc, UsageError | ValueError):  # our registries' own words
        return " ".join(str(exc).split())
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def is_path(plugin: str) -> bool:
    """A ``--plugin`` value that names a file rather than a module."""
    return plugin.endswith(".py") or "/" in plugin or os.sep in plugin or plugin.startswith(".")


def _import_local(module: str) -> None:
    if is_path(module):
        _import_file(module)
        return
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        importlib.import_module(module)
    except ImportError as exc:
        if exc.name is not None and module.startswith(exc.name):
            raise UsageError(f"--plugin {module!r}: cannot import it ({exc}); name a module "
                             "importable from the current directory, e.g. "
                             "examples.plugin, or a file, e.g. examples/plugin.py") from None
        raise UsageError(f"--plugin {module!r} failed to load: {cause(exc)}") from None
    except (Exception, SystemExit) as exc:  # the plugin's own fault: name it and the cause
        _forget(module)
        raise UsageError(f"--plugin {module!r} failed to load: {cause(exc)}") from None


def _import_file(plugin: str) -> None:
    """Import ``plugin``, a path to a ``.py`` file, under a module name of its own."""
    path = Path(plugin).expanduser().resolve()
    if path.suffix != ".py" or not path.is_file():
        raise UsageError(f"--plugin {plugin!r}: not a module name and not a .py file "
                         f"({path}); give a dotted module name importable from the current "
                         "directory (examples.plugin) or a file (examples/plugin.py)")
    name = f"layerrag_plugin_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise UsageError(f"--plugin {plugin!r}: cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as exc:
        _forget(name)
        raise UsageError(f"--plugin {plugin!r} failed to load: {cause(exc)}") from None


def _forget(module: str) -> None:
    """Drop a half-imported module, so a retry in the same process imports it again."""
    sys.modules.pop(module, None)
