"""Scenario order and the layer each scenario targets: the axes every table is laid out on.

The reference order and layers are :mod:`simulator.vocabulary`'s; this module adds the
scenarios registered in the process (custom ones) and the ordering rules for unknown names.

The target layer decides which scenarios count as "on target" when a mitigation is credited
(``specificity_margin``): schema repair targets ``schema_drift`` (the contract layer), and
every other scenario is an off-target negative control for it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

from simulator.vocabulary import CONTRACT_MODES, SCENARIO_LAYER, SCENARIO_ORDER


def _ordered(names: Iterable[str], order: tuple[str, ...]) -> list[str]:
    rank = {name: i for i, name in enumerate(order)}
    return sorted(set(names), key=lambda n: (rank.get(n, len(order)), n))


def ordered_scenarios(names: Iterable[str]) -> list[str]:
    """Distinct scenario names in the paper's order, unknown ones after, alphabetically."""
    return _ordered(names, SCENARIO_ORDER)


def ordered_modes(names: Iterable[str]) -> list[str]:
    """Distinct contract modes: strict, repair, then any others alphabetically."""
    return _ordered(names, CONTRACT_MODES)


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
            if name not in SCENARIO_LAYER}


def target_layer(scenario: str) -> str:
    """The scenario's layer: a reference scenario's from the vocabulary, a scenario
    registered in this process from the registry, otherwise ``"unknown"``."""
    known = SCENARIO_LAYER.get(scenario)
    if known is not None:
        return known
    return _registered_layers().get(scenario, "unknown")


def scenarios_targeting(layer: str) -> frozenset[str]:
    """Every known scenario whose fault lives in ``layer`` (e.g. completeness -> two)."""
    layers = {**SCENARIO_LAYER, **_registered_layers()}
    return frozenset(s for s, lay in layers.items() if lay == layer)
