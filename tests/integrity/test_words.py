"""The README, ``list`` and the report use the same words: no raw ``x`` markup in ``list``,
no empty or borrowed reader descriptions, arms in the order given, the reference arm of
"Arms compared" named, the controlled arm as README says, output folders git-ignored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.cli.main import main
from tests.conftest import TINY_SPEC

ROOT = Path(__file__).resolve().parents[2]


def test_list_prints_no_rest_markup(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list"]) == 0
    assert "``" not in capsys.readouterr().out


def test_every_reader_has_its_own_description(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "readers", "--json"]) == 0
    readers = json.loads(capsys.readouterr().out)
    assert all(r["description"] for r in readers)
    live = [r["description"] for r in readers if r["live"]]
    assert not any("no provider calls" in d for d in live)


def test_the_controlled_arm_is_the_seven_layer_controls_readme_names() -> None:
    from policies.arms import arm_policies

    controlled = arm_policies("controlled")
    readme = (ROOT / "README.md").read_text()
    assert len(controlled) == 7 and "(all seven)" not in readme
    assert all(f"`{p}`" in readme for p in controlled)


def test_report_lays_arms_out_in_the_order_given_and_names_the_reference(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert main(["run", "--out", str(out), "--spec", str(TINY_SPEC), "--tasks", "2",
                 "--scenarios", "clean,schema_drift", "--arms", "controlled,uncontrolled",
                 "--no-progress", "--format", "none"]) == 0
    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.index("## Arm `controlled`") < text.index("## Arm `uncontrolled`")
    assert "the reference arm `uncontrolled` answered" in text


def test_output_folders_are_git_ignored() -> None:
    ignored = (ROOT / ".gitignore").read_text().split()
    assert "out/" in ignored and "runs/" in ignored
