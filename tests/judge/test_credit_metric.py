"""``layerrag credit --metric <judge metric>``: the layer credit on a judge score
(issue 30, item 4), paired on the same records as the credit on S."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.cli.main import main


def credit(*argv: str) -> list[str]:
    return ["credit", "--tasks", "8", "--replicates", "50", "--no-progress", *argv]


def test_schema_repair_is_credited_on_context_sufficiency(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(credit("--policy", "schema_repair", "--metric", "context_sufficiency",
                       "--json")) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["metric"] == "judge_context_sufficiency"
    assert data["verdict"] == "credited" and data["target_gain"] > 0.5
    # paired on the scored records only: every schema_drift pair has the metric
    assert data["pairs"] == 8


def test_a_metric_that_never_applies_on_both_sides_is_an_error_not_a_zero(
        capsys: pytest.CaptureFixture[str]) -> None:
    """session_isolation abstains on wrong_session, and hallucination does not apply to a
    non-answer: no pair has the score on both sides, which is said, not scored 0."""
    assert main(credit("--policy", "session_isolation", "--metric", "hallucination")) == 2
    assert "with judge_hallucination scored on both sides" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "message"), [
    (["--metric", "helpfulness"], "--metric helpfulness: neither an outcome"),
    (["--metric", "s_final", "--judge", "openai:m"], "give --run RUN_DIR"),
])
def test_bad_metric_or_judge_is_one_line(argv: list[str], message: str, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(credit("--policy", "schema_repair", *argv)) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1
