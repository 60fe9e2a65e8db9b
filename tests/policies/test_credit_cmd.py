"""``layerrag credit`` end to end: schema repair on the full matrix, every policy on a subset."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from policies import CONTROLLED_POLICIES
from simulator.cli.main import main
from simulator.evaluation import layer_credit
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


def test_credit_json_says_what_its_interval_covers(
        schema_repair_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = _credit_json(capsys, "--policy", "schema_repair", "--run", str(schema_repair_run))
    assert (body["bootstrap"], body["model_units"], body["policy_units"]) == ("nested", 1, 80)
    assert body["interval_caveat"] == "task sampling for this model only"


def test_credit_takes_the_crossed_bootstrap(
        schema_repair_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    body = _credit_json(capsys, "--policy", "schema_repair", "--run", str(schema_repair_run),
                        "--bootstrap", "crossed")
    assert body["bootstrap"] == "crossed" and body["verdict"] == "credited"


def test_a_policy_typo_is_one_line_with_a_suggestion(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["credit", "--policy", "schema_repiar"]) == 2
    err = capsys.readouterr().err
    assert "Did you mean: schema_repair?" in err and err.count("\n") == 1


def _every_policy(out: Path, pipeline: str) -> list[RunRecord]:
    run_matrix(RunConfig(modes=("strict",), arms=("uncontrolled", *CONTROLLED_POLICIES),
                         tasks=SUBSET, pipeline=pipeline), out, progress=False)
    with RunStore(out) as store:
        return list(store.records())


@pytest.fixture(scope="module")
def every_policy_open(tmp_path_factory: pytest.TempPathFactory) -> list[RunRecord]:
    return _every_policy(tmp_path_factory.mktemp("every_policy_open"), "open")


@pytest.fixture(scope="module")
def every_policy_paper(tmp_path_factory: pytest.TempPathFactory) -> list[RunRecord]:
    return _every_policy(tmp_path_factory.mktemp("every_policy_paper"), "paper")


@pytest.mark.parametrize("policy", [p for p in CONTROLLED_POLICIES
                                    if p != "access_aware_abstention"])
def test_each_policy_is_credited_for_its_own_layer_without_built_in_stops(
        every_policy_open: list[RunRecord], policy: str) -> None:
    credit = layer_credit(every_policy_open, policy, replicates=300, pipeline="open")
    assert credit.verdict == "credited", credit.reason
    assert credit.largest_off_target == 0


def test_access_aware_abstention_has_nothing_to_prevent_when_the_denial_leaves_nothing(
        every_policy_open: list[RunRecord]) -> None:
    """permission_denied, aiming without labels, revokes every group in force that answers
    the question (middleware/faults/permission_denied.py); on enterprise_v2 nothing readable
    is left, the open pipeline's reader abstains on an empty read, and the policy's abstention
    changes nothing: no effect, and no off-target cost either."""
    credit = layer_credit(every_policy_open, "access_aware_abstention", replicates=300,
                          pipeline="open")
    assert credit.verdict == "no_effect", credit.reason
    assert credit.largest_off_target == 0


@pytest.mark.parametrize("policy", [p for p in CONTROLLED_POLICIES
                                    if p != "access_aware_abstention"])
def test_the_paper_pipeline_credits_every_policy_its_stops_leave_work_for(
        every_policy_paper: list[RunRecord], policy: str) -> None:
    credit = layer_credit(every_policy_paper, policy, replicates=300, pipeline="paper")
    assert credit.verdict == "credited", credit.reason
    assert credit.largest_off_target == 0


def test_access_aware_abstention_adds_nothing_to_a_pipeline_that_stops_on_denial(
        every_policy_paper: list[RunRecord]) -> None:
    """The paper pipeline already ends with an access-denied unknown, and credit says so."""
    credit = layer_credit(every_policy_paper, "access_aware_abstention", replicates=300,
                          pipeline="paper")
    assert credit.verdict == "no_effect" and credit.largest_off_target == 0
    assert "ended 48 of 48 target records before any prompt" in credit.reason
    assert "--pipeline open" in credit.reason


def test_credit_refuses_a_run_made_with_another_pipeline(
        every_policy_paper: list[RunRecord], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "open"
    run_matrix(RunConfig(modes=("strict",), arms=("uncontrolled", "access_aware_abstention"),
                         tasks=6, pipeline="open"), run, progress=False)
    body = _credit_json(capsys, "--policy", "access_aware_abstention", "--run", str(run))
    assert body["pipeline"] == "open"
    assert main(["credit", "--policy", "access_aware_abstention", "--run", str(run),
                 "--pipeline", "paper"]) == 2
    err = capsys.readouterr().err
    assert "was run with --pipeline open, not paper" in err and err.count("\n") == 1
