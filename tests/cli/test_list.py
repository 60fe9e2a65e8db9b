"""``layerrag list``: every kind, from the registries, as text and as JSON."""

from __future__ import annotations

import json

import pytest

from middleware.faults import faults
from policies import policies
from simulator.cli.list_cmd import KINDS
from simulator.cli.main import main
from simulator.vocabulary import SCENARIO_NAMES


def listed(capsys: pytest.CaptureFixture[str], *argv: str) -> object:
    assert main(["list", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_list_policies_json_names_every_registered_policy_with_its_layers(
        capsys: pytest.CaptureFixture[str]) -> None:
    entries = listed(capsys, "policies")
    assert isinstance(entries, list)
    assert {e["name"]: tuple(e["layers"]) for e in entries} == {
        name: policies.get(name).layers for name in policies}
    retry = next(e for e in entries if e["name"] == "bounded_retry")
    assert retry["parameters"] == {"max_retries": 2} and retry["claims"] == "answer"


def test_list_faults_gives_each_fault_its_layer_and_parameter_defaults(
        capsys: pytest.CaptureFixture[str]) -> None:
    entries = {e["name"]: e for e in listed(capsys, "faults")}  # type: ignore[union-attr]
    assert set(entries) >= {*faults}
    assert entries["partial_timeout"]["layer"] == "completeness"
    assert entries["partial_timeout"]["parameters"] == {
        "timeout_probability": 0.65, "recovery_probability": 0.5, "shards": None}


def test_list_scenarios_starts_with_the_reference_table_in_order(
        capsys: pytest.CaptureFixture[str]) -> None:
    names = [e["name"] for e in listed(capsys, "scenarios")]  # type: ignore[union-attr]
    assert tuple(names[:len(SCENARIO_NAMES)]) == SCENARIO_NAMES


def test_list_without_a_kind_prints_a_table_of_every_kind(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    for kind in KINDS:
        assert f"# {kind}\n" in out
    assert "| tfidf_domain_validity |" in out and "| controlled |" in out


def test_list_json_without_a_kind_has_every_kind(capsys: pytest.CaptureFixture[str]) -> None:
    assert set(listed(capsys)) == set(KINDS)  # type: ignore[arg-type]
