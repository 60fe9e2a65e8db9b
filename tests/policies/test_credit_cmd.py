"""``layerrag credit`` end to end: schema repair on the full matrix, every policy on a subset."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from policies import CONTROLLED_POLICIES
from policies.evaluation import layer_credit
from simulator.cli.main import main
from simulator.runner.config import RunConfig
from simulator.runner.matrix import run_matrix
from simulator.runner.record import RunRecord
from simulator.runner.store import RunStore

SUBSET = 48
"""The first 48 tasks: two domains, 16 policy units; enough for every verdict."""


@pytest.fixture(scope="module")
def schema_repair_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("credit") / "schema_repair"


def _credit_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:  # type: ignore[type-arg]
    assert main(["credit", *args, "--json", "--no-progress", "--replicates", "500"]) == 0
    return json.loads(capsys.readouterr().out)


def test_schema_repair_is_credited_for_schema_drift_only_on_the_full_matrix(
        schema_repair_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = _credit_json(capsys, "--policy", "schema_repair", "--run", str(schema_repair_run))
    assert body["verdict"] == "credited" and body["target_scenarios"] == ["schema_drift"]
    assert body["target_gain"] >= 0.8 and body["interval"][0] > 0.7
    assert all(change[m]["estimate"] == 0 for change in body["off_target"].values()
               for m in ("S", "safe_resolution"))
    assert body["specificity_margin"] == body["target_gain"]


def test_credit_reads_an_existing_run_instead_of_running_again(
        schema_repair_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with RunStore(schema_repair_run) as store:
        before = store.count()
    body = _credit_json(capsys, "--policy", "schema_repair", "--run", str(schema_repair_run))
    with RunStore(schema_repair_run) as store:
        assert store.count() == before == 4320
    assert body["verdict"] == "credited"


def test_a_policy_typo_is_one_line_with_a_suggestion(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["credit", "--policy", "schema_repiar"]) == 2
    err = capsys.readouterr().err
    assert "Did you mean: schema_repair?" in err and err.count("\n") == 1


@pytest.fixture(scope="module")
def every_policy(tmp_path_factory: pytest.TempPathFactory) -> list[RunRecord]:
    out = tmp_path_factory.mktemp("every_policy")
    run_matrix(RunConfig(modes=("strict",), arms=("uncontrolled", *CONTROLLED_POLICIES),
                         tasks=SUBSET), out, progress=False)
    with RunStore(out) as store:
        return list(store.records())


@pytest.mark.parametrize("policy", [p for p in CONTROLLED_POLICIES
                                    if p != "access_aware_abstention"])
def test_each_policy_is_credited_for_its_own_layer(every_policy: list[RunRecord],
                                                   policy: str) -> None:
    credit = layer_credit(every_policy, policy, replicates=300)
    assert credit.verdict == "credited", credit.reason
    assert credit.largest_off_target == 0


def test_access_aware_abstention_adds_nothing_to_a_pipeline_that_stops_on_denial(
        every_policy: list[RunRecord]) -> None:
    """The reference pipeline already ends with an access-denied unknown (paper §2)."""
    credit = layer_credit(every_policy, "access_aware_abstention", replicates=300)
    assert credit.verdict == "no_effect" and credit.largest_off_target == 0
