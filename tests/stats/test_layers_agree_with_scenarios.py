"""The light copies of the scenario axes agree with the middleware's scenario registry.

Reports, archive recomputes and the CLI's help keep the paper's scenario order, target
layers and contract modes as plain constants, so they need not import the middleware
(and scikit-learn) to lay out a table. These tests keep the copies from drifting.
"""

from __future__ import annotations

from middleware import CONTRACT_MODES, SCENARIO_NAMES, get_scenario
from simulator.runner import config
from simulator.stats import CONTRACT_MODE_ORDER, SCENARIO_ORDER, TARGET_LAYER


def test_the_scenario_order_is_the_registrys() -> None:
    assert SCENARIO_ORDER == tuple(SCENARIO_NAMES) == config.ALL_SCENARIOS


def test_every_target_layer_is_the_scenarios_declared_layer() -> None:
    assert {name: get_scenario(name).layer for name in SCENARIO_NAMES} == dict(TARGET_LAYER)


def test_the_contract_modes_are_the_middlewares() -> None:
    assert tuple(CONTRACT_MODES) == CONTRACT_MODE_ORDER == config.CONTRACT_MODES
