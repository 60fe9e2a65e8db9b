"""A scenario composed and registered by a user gets its layer in reports and in credit."""

from __future__ import annotations

from pathlib import Path

import pytest

from middleware import FaultSpec, compose
from middleware.scenarios import scenarios
from simulator.evaluation import layer_credit
from simulator.report import build_report, render
from simulator.runner.config import RunConfig
from simulator.runner.matrix import run_matrix
from simulator.runner.store import RunStore
from simulator.stats import scenarios_targeting, target_layer

NAME = "stale_replica"


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> str:
    scenario = compose(NAME, FaultSpec(name="stale_index", params={"versions_behind": 1}),
                       layer="freshness", answerable=False,
                       description="a read replica that missed the last publication")
    monkeypatch.setitem(scenarios._items, NAME, scenario)  # removed again after the test
    return NAME


def test_a_registered_scenario_has_its_layer(registered: str) -> None:
    assert target_layer(registered) == "freshness"
    assert scenarios_targeting("freshness") == {"stale_index", registered}
    assert target_layer("never_registered") == "unknown"


def test_credit_and_reports_see_a_registered_scenario(registered: str, tmp_path: Path) -> None:
    run_matrix(RunConfig(scenarios=("clean", registered), modes=("strict", "repair"),
                         arms=("uncontrolled", "freshness_check"), tasks=30), tmp_path,
               progress=False)
    with RunStore(tmp_path) as store:
        records = list(store.records())
    credit = layer_credit(records, "freshness_check", replicates=200)
    assert credit.target_scenarios == (registered,)
    assert credit.verdict == "credited", credit.reason
    assert f"| {registered} | freshness |" in render(build_report(records, replicates=50), "md")
