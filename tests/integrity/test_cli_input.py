"""Command-line values that say nothing, or say something impossible, are one line, exit 2.

``--scenarios clean,,stale_index``, ``--out ""``, ``--arms "mine=bounded_retry+"``, a
negative ``--price``, an unknown ``study arms --baseline``; and a scenario group name works
inside a list as it does alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.cli.lists import scenario_list
from simulator.cli.main import main
from simulator.errors import UsageError
from simulator.vocabulary import SCENARIO_GROUPS
from tests.conftest import TINY_SPEC

SMALL = ["--spec", str(TINY_SPEC), "--tasks", "1", "--modes", "strict", "--no-progress",
         "--format", "none"]


def one_line_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: "), err
    return err


@pytest.mark.parametrize("scenarios", ["clean,,stale_index", "clean,", ",clean", ""])
def test_an_empty_scenario_name_is_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, scenarios: str) -> None:
    err = one_line_error(capsys, "run", "--out", str(tmp_path / "r"), "--scenarios",
                         scenarios, *SMALL)
    assert "--scenarios" in err and "empty name" in err
    assert not (tmp_path / "r").exists()


def test_a_group_name_expands_inside_a_list() -> None:
    assert scenario_list("clean,misleading") == SCENARIO_GROUPS["misleading"]
    assert scenario_list("schema_drift,misleading")[0] == "schema_drift"
    assert scenario_list("misleading") == SCENARIO_GROUPS["misleading"]


def test_a_run_with_a_group_inside_a_list_runs_its_members(tmp_path: Path) -> None:
    out = tmp_path / "r"
    assert main(["run", "--out", str(out), "--scenarios", "clean,misleading", *SMALL]) == 0
    from simulator.runner.store import RunStore

    with RunStore(out, create=False) as store:
        ran = {r.scenario for r in store.records()}
    assert ran == set(SCENARIO_GROUPS["misleading"])


@pytest.mark.parametrize("command", [["run"], ["study", "focused"], ["corpus", "build"]],
                         ids=["run", "study", "corpus"])
def test_an_empty_out_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                 monkeypatch: pytest.MonkeyPatch, command: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    err = one_line_error(capsys, *command, "--out", "")
    assert "--out ''" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("arm", ["mine=bounded_retry+", "mine=", "=bounded_retry",
                                 "mine=+bounded_retry"])
def test_an_arm_with_an_empty_part_is_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, arm: str) -> None:
    err = one_line_error(capsys, "run", "--out", str(tmp_path / "r"), "--arms", arm, *SMALL)
    assert repr(arm) in err


def test_an_empty_arm_name_in_the_list_is_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    one_line_error(capsys, "run", "--out", str(tmp_path / "r"), "--arms",
                   "uncontrolled,,controlled", *SMALL)


@pytest.mark.parametrize("price", ["openai:m=-1,-1", "openai:m=1,-0.5", "openai:m=nan,1",
                                   "openai:m=inf,1"])
def test_a_negative_or_non_finite_price_is_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, price: str) -> None:
    err = one_line_error(capsys, "run", "--out", str(tmp_path / "r"), "--model", "openai:m",
                         "--base-url", "http://127.0.0.1:9/v1", "--price", price, *SMALL)
    assert "--price" in err
    assert not (tmp_path / "r").exists()


def test_study_arms_refuses_a_baseline_the_run_does_not_hold(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "r"
    assert main(["run", "--out", str(out), "--scenarios", "clean", *SMALL]) == 0
    capsys.readouterr()
    err = one_line_error(capsys, "study", "arms", str(out), "--baseline", "nope")
    assert "--baseline 'nope'" in err and "uncontrolled" in err


def test_the_arm_table_refuses_an_unknown_baseline() -> None:
    from simulator.stats.arms import arm_table

    class Row:
        arm, scenario, contract_mode, answerable = "uncontrolled", "clean", "strict", True

    with pytest.raises(UsageError, match="not an arm of this run"):
        arm_table([Row()], baseline="nope")
