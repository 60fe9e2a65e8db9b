"""``layerrag list [KIND]``: what can be named on the command line, from the registries.

Every entry comes from where the component is declared (the fault, policy, scenario, arm,
agent, reader and retriever registries, simulator/vocabulary.py for layers, and
simulator/answers/formats.py for answer formats), so a plugin's components are listed
beside the built-ins and nothing here can drift from what ``run`` accepts.
"""

from __future__ import annotations

import argparse
import inspect
import json
import re
import sys
from collections.abc import Callable
from typing import Any

from simulator.cli.plugin_option import add_plugin_option

KINDS = ("scenarios", "faults", "policies", "arms", "agents", "readers", "retrievers",
         "formats", "layers")

EXAMPLES = """examples:
  layerrag list                          # every kind, one table each
  layerrag list policies --json          # names, layers, claims, parameters, descriptions
  layerrag list faults --plugin examples.plugin   # with a plugin's components
"""

Entry = dict[str, Any]


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "list", help="list scenarios, faults, policies, arms, agents, readers, ...",
        description="List what can be named on the command line: names, layers, parameters "
                    "with their defaults, one-line descriptions.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", nargs="?", choices=KINDS, default=None, metavar="KIND",
                        help=f"one of {', '.join(KINDS)} (default: all)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    add_plugin_option(parser)
    parser.set_defaults(func=_list)


def _list(args: argparse.Namespace) -> int:
    kinds = (args.kind,) if args.kind else KINDS
    listed = {kind: [_plain(e) for e in LISTERS[kind]()] for kind in kinds}
    if args.json:
        print(json.dumps(listed[args.kind] if args.kind else listed, indent=2))
        return 0
    sys.stdout.write("\n".join(_table(kind, entries) for kind, entries in listed.items()))
    return 0


# -- one lister per kind -----------------------------------------------------------------

def parameters(factory: Callable[..., object]) -> dict[str, Any]:
    """A factory's parameters and their defaults, as JSON values (``"<required>"`` when a
    parameter has none)."""
    found = {}
    for name, param in inspect.signature(factory).parameters.items():
        default = param.default
        found[name] = "<required>" if default is inspect.Parameter.empty else _json(default)
    return found


def _json(value: object) -> Any:
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, tuple | list):
        return [_json(v) for v in value]
    return repr(value)


def list_faults() -> list[Entry]:
    from middleware.faults import faults

    return [{"name": f.name, "layer": f.layer, "parameters": parameters(f.factory),
             "description": f.description} for f in map(faults.get, faults)]


def list_policies() -> list[Entry]:
    from policies import policies

    return [{"name": p.name, "layers": list(p.layers), "claims": p.claims,
             "credited_on": p.credit_metric, "parameters": parameters(p.factory),
             "description": p.description} for p in map(policies.get, policies)]


def list_scenarios() -> list[Entry]:
    from middleware.scenarios import scenarios

    found = []
    for scenario in map(scenarios.get, scenarios):
        found.append({
            "name": scenario.name, "layer": scenario.layer,
            "faults": [{"name": f.name, "parameters": _json_params(f.params)}
                       for f in scenario.faults],
            "answerable": scenario.answerable, "answerable_note": scenario.answerable_note,
            "mitigation": scenario.mitigation, "description": scenario.description})
    return found


def _json_params(params: dict[str, Any]) -> dict[str, Any]:
    return {k: _json(v) for k, v in params.items()}


def list_arms() -> list[Entry]:
    from policies import arm_policies, arms

    found = []
    for name in arms:
        policies = arm_policies(name)
        found.append({"name": name, "policies": list(policies),
                      "description": ("no policy: the baseline" if not policies else
                                      "policies in gate order: " + " -> ".join(policies))})
    found.append({"name": "POLICY or A+B or NAME=A+B", "policies": [],
                  "description": "any policy alone, policies joined by '+' in gate order, "
                                 "or a named arm of them (--arms mine=bounded_retry+"
                                 "session_isolation; the run's manifest keeps the name)"})
    return found


def list_agents() -> list[Entry]:
    from simulator.agents.registry import agents

    found: list[Entry] = [{"name": a.name, "kind": a.kind, "description": a.description}
                          for a in map(agents.get, agents)]
    found.append({"name": "MODULE:CALLABLE", "kind": "tool_calling",
                  "description": "your own factory(model, tools, middleware) -> compiled "
                                 "graph (docs/agents.md)"})
    return found


def list_readers() -> list[Entry]:
    from simulator.readers.base import readers
    from simulator.readers.registry import load_live_readers

    load_live_readers()
    found = []
    for key in readers:
        factory = readers.get(key)
        doc = (inspect.getdoc(factory) or "").splitlines()
        found.append({"name": key if key == "deterministic" else f"{key}:MODEL",
                      "live": key != "deterministic",
                      "description": (doc[0] if doc else "")
                      or ("extracts the value from the evidence with the format's pattern; "
                          "no provider calls" if key == "deterministic" else
                          "a reader registered by a plugin (its factory has no docstring)")})
    return found


def list_retrievers() -> list[Entry]:
    from simulator.retrieval import DEFAULT_RETRIEVER, DEFAULT_TOP_K, retrievers

    found = []
    for name in retrievers:
        retriever = retrievers.get(name)
        settings = (retriever.model_dump(mode="json") if hasattr(retriever, "model_dump")
                    else {})
        doc = (inspect.getdoc(type(retriever)) or "").splitlines()
        described = getattr(retriever, "description", None) or (doc[0] if doc else name)
        found.append({"name": name, "default": name == DEFAULT_RETRIEVER,
                      "parameters": settings,
                      "description": (str(described)
                                      + (f" (the reported default, top_k {DEFAULT_TOP_K})"
                                         if name == DEFAULT_RETRIEVER else ""))})
    return found


_FORMAT_EXAMPLES = {
    "duration": "'30 days', 'six weeks'", "amount": "'$5,000', '£2 million'",
    "count": "'3', 'three'", "percentage": "'15%', '15 percent'",
    "frequency": "'twice a year', 'every two weeks', 'quarterly'",
    "time_of_day": "'5 p.m.', '17:30', 'noon'", "role": "'Chief Risk Officer', 'line manager'",
    "system": "'Workday', 'ServiceNow'",
}
"""Illustrations only: what each built-in pattern accepts is simulator/answers/formats.py."""


def list_formats() -> list[Entry]:
    from simulator.answers.formats import BUILTIN_FORMATS, CHOICE, PATTERNS

    found: list[Entry] = [
        {"name": name, "kind": "built in",
         "description": ("yes or no: the polarity of the sentence that states it"
                         if name not in PATTERNS else
                         f"a span matching its pattern, e.g. {_FORMAT_EXAMPLES.get(name, name)}")}
        for name in BUILTIN_FORMATS]
    found.append({"name": CHOICE, "kind": "choice",
                  "description": "one of a few options declared with the unit, e.g. "
                                 "'choice (one of: a rotating draw | length of service)'"})
    found.append({"name": "NAME", "kind": "declared",
                  "description": "a name, a regular expression and optional normalisation "
                                 "steps, declared in corpus.toml under [[formats]]"})
    return found


def list_layers() -> list[Entry]:
    from middleware.faults import faults
    from middleware.scenarios import scenarios
    from policies import policies
    from simulator.vocabulary import FAILURE_LAYERS, LAYERS, MITIGATION_LAYERS

    found = []
    for layer in LAYERS:
        found.append({
            "name": layer, "kind": "operational",
            "faults": [n for n in faults if faults.get(n).layer == layer],
            "scenarios": [n for n in scenarios if scenarios.get(n).layer == layer],
            "policies": [n for n in policies if layer in policies.get(n).layers],
            "mitigable": layer in MITIGATION_LAYERS,
            "description": "the clean scenario's: no fault" if layer == "none" else
                           "an operational layer: faults target it, policies claim it"})
    for failure in FAILURE_LAYERS:
        found.append({"name": failure, "kind": "failure", "faults": [], "scenarios": [],
                      "policies": [], "mitigable": False,
                      "description": "a first layer that explains a strict failure "
                                     "(the report's failure-layer table)"})
    return found


LISTERS: dict[str, Callable[[], list[Entry]]] = {
    "scenarios": list_scenarios, "faults": list_faults, "policies": list_policies,
    "arms": list_arms, "agents": list_agents, "readers": list_readers,
    "retrievers": list_retrievers, "formats": list_formats, "layers": list_layers,
}


# -- text --------------------------------------------------------------------------------

_COLUMNS = {
    "scenarios": ("name", "layer", "faults", "answerable", "mitigation", "description"),
    "faults": ("name", "layer", "parameters", "description"),
    "policies": ("name", "layers", "claims", "parameters", "description"),
    "arms": ("name", "policies", "description"),
    "agents": ("name", "kind", "description"),
    "readers": ("name", "live", "description"),
    "retrievers": ("name", "parameters", "description"),
    "formats": ("name", "kind", "description"),
    "layers": ("name", "kind", "faults", "policies", "description"),
}


def _plain(entry: Entry) -> Entry:
    """An entry whose description reads as text: docstrings' reST ``x`` markup unwrapped."""
    text = entry.get("description")
    if not isinstance(text, str):
        return entry
    return {**entry, "description": re.sub(r"``(.+?)``", r"\1", text)}


def _cell(value: object) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k}={_cell(v)}" for k, v in value.items()) or "-"
    if isinstance(value, list):
        return ", ".join(_cell(v) for v in value) or "-"
    if value is None:
        return "-"
    return str(value)


def _table(kind: str, entries: list[Entry]) -> str:
    columns = _COLUMNS[kind]
    lines = [f"# {kind}", "", "| " + " | ".join(columns) + " |",
             "|" + "|".join(":--" for _ in columns) + "|"]
    for entry in entries:
        cells = []
        for column in columns:
            value = entry.get(column)
            if kind == "scenarios" and column == "faults":
                value = [f["name"] for f in entry["faults"]]
            if kind == "scenarios" and column == "answerable" and entry["answerable_note"]:
                value = f"{value} ({entry['answerable_note']})"
            cells.append(_cell(value).replace("|", "\\|"))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
