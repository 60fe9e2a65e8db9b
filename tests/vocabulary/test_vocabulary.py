"""The vocabulary module: the one place layers, modes, pipelines and scenarios are declared."""

from __future__ import annotations

import subprocess
import sys

import pytest

from middleware import get_scenario
from policies import get_policy
from simulator.vocabulary import (
    LAYERS,
    MITIGATION_LAYERS,
    SCENARIO_LAYER,
    SCENARIO_NAMES,
    SCENARIO_TABLE,
)


def test_importing_the_vocabulary_loads_no_heavy_library() -> None:
    code = ("import sys, time; t = time.perf_counter(); import simulator.vocabulary; "
            "print(time.perf_counter() - t); "
            "print(sorted(m for m in ('pydantic', 'sklearn', 'langchain_core', 'numpy') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.split("\n")
    assert out[1] == "[]"


def test_mitigation_layers_are_every_layer_but_none() -> None:
    assert set(MITIGATION_LAYERS) == set(LAYERS) - {"none"}


def test_the_reference_scenarios_are_the_papers_nine_in_table_order() -> None:
    assert SCENARIO_NAMES == ("clean", "stale_index", "schema_drift", "partial_timeout",
                              "missing_tool_output", "permission_denied", "wrong_session",
                              "conflicting_evidence", "corrupted_metadata")


@pytest.mark.parametrize("entry", SCENARIO_TABLE, ids=lambda e: e.name)
def test_each_mitigation_names_a_registered_policy_that_claims_the_scenarios_layer(entry
                                                                                   ) -> None:
    if entry.mitigation is None:
        return
    assert entry.layer in get_policy(entry.mitigation).layers


@pytest.mark.parametrize("entry", SCENARIO_TABLE, ids=lambda e: e.name)
def test_the_registered_scenario_is_built_from_its_table_row(entry) -> None:
    scenario = get_scenario(entry.name)
    assert (scenario.layer, scenario.answerable, scenario.mitigation) == (
        entry.layer, entry.answerable, entry.mitigation)
    assert tuple(f.name for f in scenario.faults) == tuple(n for n, _ in entry.faults)
    assert SCENARIO_LAYER[entry.name] == scenario.layer
