"""What a run's records were made with, beyond its options: scenario definitions, fault
parameters and code, the agent factory. Checked on resume.

The run id hashes the configuration's *names* (a scenario called ``mine``, an agent called
``my_pkg.agent:build``). A plugin that redefines ``mine`` with other faults or parameters,
or a factory whose code changed, would resume into the old directory and mix records of two
different runs. So the manifest also records :func:`definitions`, and a resume whose
definitions differ is refused as "a different configuration", naming what changed.

Code is identified by module, qualified name and the sha256 of its source file, for code
outside layerrag's own packages (plugins, users' agents): layerrag's own code is identified
by the version and git revision the manifest already records, so an upgrade does not make
every run directory unresumable. The run id itself is unchanged, so archives keep theirs.
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Mapping
from typing import Any

OWN_PACKAGES = ("simulator", "middleware", "policies")


def code_identity(obj: Any) -> dict[str, str | None]:
    """Module, qualified name and source-file hash of ``obj`` (None where unknowable)."""
    target = inspect.unwrap(obj) if callable(obj) else obj
    module = getattr(target, "__module__", None) or type(target).__module__
    qualname = getattr(target, "__qualname__", None) or type(target).__qualname__
    source: str | None = None
    try:
        path = inspect.getsourcefile(target) or inspect.getsourcefile(type(target))
        if path:
            with open(path, "rb") as handle:
                source = hashlib.sha256(handle.read()).hexdigest()
    except (OSError, TypeError):
        source = None
    return {"module": module, "qualname": qualname, "source_sha256": source}


def _outside(obj: Any) -> bool:
    module = getattr(inspect.unwrap(obj) if callable(obj) else obj, "__module__", "") or ""
    return module.split(".")[0] not in OWN_PACKAGES


def scenario_definition(name: str) -> dict[str, Any]:
    """A registered scenario as data, each fault with its parameters (defaults included)
    and, for a plugin's fault, its code."""
    from middleware import get_scenario
    from middleware.faults import get_fault

    scenario = get_scenario(name)
    faults = []
    for spec in scenario.faults:
        factory = get_fault(spec.name)
        entry: dict[str, Any] = {"name": spec.name, "layer": factory.layer,
                                 "parameters": {k: repr(v) for k, v in
                                                {**factory.parameters, **spec.params}.items()}}
        if _outside(factory.factory):
            entry["code"] = code_identity(factory.factory)
        faults.append(entry)
    found: dict[str, Any] = {"layer": scenario.layer, "answerable": scenario.answerable,
                             "mitigation": scenario.mitigation, "faults": faults}
    if scenario.turns is not None:  # a schedule of its own (None: the run's, as before)
        found["turns"] = scenario.turns
    return found


def agent_definition(agent: Any) -> dict[str, Any]:
    """The agent under test: its name and kind, and a user factory's code."""
    if agent is None:
        return {}
    out: dict[str, Any] = {"name": agent.name, "kind": agent.kind}
    if agent.factory is not None and _outside(agent.factory):
        out["code"] = code_identity(agent.factory)
    return out


def definitions(scenarios: tuple[str, ...], agent: Any = None) -> dict[str, Any]:
    """What the manifest records beside the configuration (see the module docstring)."""
    return {"scenarios": {name: scenario_definition(name) for name in scenarios},
            "agent": agent_definition(agent)}


def definition_change(theirs: Mapping[str, Any] | None, ours: Mapping[str, Any]) -> str | None:
    """What differs between a stored run's definitions and this invocation's, in words;
    None when they agree (or the run predates recording them)."""
    if not isinstance(theirs, Mapping):
        return None
    changed = [f"scenario {name!r}" for name, definition in ours.get("scenarios", {}).items()
               if (theirs.get("scenarios") or {}).get(name) not in (None, definition)]
    if theirs.get("agent") and ours.get("agent") and theirs["agent"] != ours["agent"]:
        changed.append(f"agent {ours['agent'].get('name')!r}")
    return ", ".join(changed) or None
