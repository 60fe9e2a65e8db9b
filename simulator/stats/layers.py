"""Scenario order and the layer each scenario targets: the axes every table is laid out on.

The target layer decides which scenarios count as "on target" when a mitigation is credited
(``specificity_margin``): schema repair targets ``schema_drift`` (the contract layer), and
every other scenario is an off-target negative control for it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from types import MappingProxyType

SCENARIO_ORDER: tuple[str, ...] = (
    "clean", "stale_index", "schema_drift", "partial_timeout", "missing_tool_output",
    "permission_denied", "wrong_session", "conflicting_evidence", "corrupted_metadata",
)
"""The paper's scenario order; scenarios not listed here follow alphabetically."""

CONTRACT_MODE_ORDER: tuple[str, ...] = ("strict", "repair")
"""Contract modes in reading order; other modes follow alphabetically."""

TARGET_LAYER: Mapping[str, str] = MappingProxyType({
    "clean": "none",
    "stale_index": "freshness",
    "schema_drift": "contract",
    "partial_timeout": "completeness",
    "missing_tool_output": "completeness",
    "permission_denied": "authorization",
    "wrong_session": "session",
    "conflicting_evidence": "evidence",
    "corrupted_metadata": "metadata",
})
"""The operational layer each scenario's fault lives in."""


def _ordered(names: Iterable[str], order: tuple[str, ...]) -> list[str]:
    rank = {name: i for i, name in enumerate(order)}
    return sorted(set(names), key=lambda n: (rank.get(n, len(order)), n))


def ordered_scenarios(names: Iterable[str]) -> list[str]:
    """Distinct scenario names in the paper's order, unknown ones after, alphabetically."""
    return _ordered(names, SCENARIO_ORDER)


def ordered_modes(names: Iterable[str]) -> list[str]:
    """Distinct contract modes: strict, repair, then any others alphabetically."""
    return _ordered(names, CONTRACT_MODE_ORDER)


def _registered_layers() -> dict[str, str]:
    """Layers of scenarios registered in this process beyond the nine reference ones.

    Only read when the scenario registry is already loaded: a report or a ``--help`` must
    not pay for importing the middleware (and scikit-learn with it) to lay out a table.
    """
    module = sys.modules.get("middleware.scenarios")
    if module is None:
        return {}
    registry = module.scenarios
    return {name: str(registry.get(name).layer) for name in registry
            if name not in TARGET_LAYER}


def target_layer(scenario: str) -> str:
    """The scenario's layer: a reference scenario's from :data:`TARGET_LAYER`, a scenario
    registered in this process from the registry, otherwise ``"unknown"``."""
    known = TARGET_LAYER.get(scenario)
    if known is not None:
        return known
    return _registered_layers().get(scenario, "unknown")


def scenarios_targeting(layer: str) -> frozenset[str]:
    """Every known scenario whose fault lives in ``layer`` (e.g. completeness -> two)."""
    layers = {**TARGET_LAYER, **_registered_layers()}
    return frozenset(s for s, lay in layers.items() if lay == layer)
