"""evidence_integrity on the deterministic matrix with the misleading scenarios: the
extractive reader adopts the edit (MR >= 0.8 at every position); the policy, checking each
hit against the registry's digest, brings MR to 0, costs nothing on clean, and is credited
on its layer with no off-target change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.runner.config import RunConfig
from simulator.runner.matrix import run_matrix
from simulator.runner.record import RunRecord
from simulator.runner.store import RunStore
from simulator.stats.misleading import misleading_rates
from simulator.vocabulary import SCENARIO_GROUPS


@pytest.fixture(scope="module")
def misleading_records(tmp_path_factory: pytest.TempPathFactory) -> list[RunRecord]:
    out = tmp_path_factory.mktemp("misleading") / "run"
    config = RunConfig(scenarios=SCENARIO_GROUPS["misleading"], modes=("strict",),
                       arms=("uncontrolled", "evidence_integrity"))
    run_matrix(config, out, progress=False)
    with RunStore(out, create=False) as store:
        return list(store.records())


@pytest.mark.slow
def test_the_extractive_reader_is_misled_at_every_position(
        misleading_records: list[RunRecord]) -> None:
    rates = [r for r in misleading_rates(misleading_records, replicates=200)
             if r.arm == "uncontrolled"]
    assert {r.position for r in rates} == {"beginning", "middle", "end"}
    for rate in rates:
        assert rate.eligible > 150 and rate.rate is not None and rate.rate.estimate >= 0.8


@pytest.mark.slow
def test_evidence_integrity_brings_mr_to_zero_and_leaves_clean_alone(
        misleading_records: list[RunRecord]) -> None:
    rates = [r for r in misleading_rates(misleading_records, replicates=200)
             if r.arm == "evidence_integrity"]
    assert len(rates) == 3 and all(r.misled == 0 and r.eligible > 150 for r in rates)
    clean = {(r.arm, r.task_id): r.S for r in misleading_records if r.scenario == "clean"}
    tasks = {t for _, t in clean}
    assert all(clean[("uncontrolled", t)] == clean[("evidence_integrity", t)] for t in tasks)


@pytest.mark.slow
def test_the_tampered_records_are_not_answerable_and_an_abstention_is_safe(
        misleading_records: list[RunRecord]) -> None:
    guarded = [r for r in misleading_records
               if r.arm == "evidence_integrity" and r.misled is not None]
    abstained = [r for r in guarded if r.abstained]
    assert abstained and all(not r.answerable and r.safe_resolution for r in abstained)


@pytest.mark.slow
def test_an_answer_read_from_the_edited_document_fails_on_the_integrity_layer(
        misleading_records: list[RunRecord]) -> None:
    misled = [r for r in misleading_records if r.arm == "uncontrolled" and r.misled]
    assert misled and all(r.failure_layer == "integrity" and not r.answerable
                          and not r.safe_resolution for r in misled)
    clean = [r for r in misleading_records if r.scenario == "clean"]
    assert all(r.misled is None and r.failure_layer != "integrity" for r in clean)


@pytest.mark.slow
def test_credit_puts_evidence_integrity_on_its_layer_with_no_off_target_change(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["credit", "--policy", "evidence_integrity", "--json", "--no-progress",
                 "--tasks", "48", "--replicates", "300"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["verdict"] == "credited" and body["target_layers"] == ["integrity"]
    assert body["target_scenarios"] == ["misleading_beginning", "misleading_middle",
                                        "misleading_end"]
    assert body["target_gain"] > 0.5
    assert all(change[m]["estimate"] == 0 for change in body["off_target"].values()
               for m in ("S", "safe_resolution"))


def test_run_scenarios_misleading_names_clean_and_the_three_positions(tmp_path: Path) -> None:
    import argparse

    from simulator.cli.run_cmd import config_from_args, register

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(["run", "--out", str(tmp_path / "r"), "--scenarios",
                              "misleading"])
    assert config_from_args(args).scenarios == SCENARIO_GROUPS["misleading"]
    default = parser.parse_args(["run", "--out", str(tmp_path / "d")])
    assert not any(s.startswith("misleading") for s in config_from_args(default).scenarios)
