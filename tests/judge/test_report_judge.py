"""``layerrag report RUN_DIR --judge NAME``: the stored judgments' tables in the report,
without judging again, and the same numbers ``layerrag judge`` printed."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from simulator.cli.main import main


def test_report_carries_the_judge_tables_layerrag_judge_printed(
        run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["judge", str(run), "--replicates", "30"]) == 0
    judged = capsys.readouterr().out
    assert main(["report", str(run), "--judge", "deterministic", "--replicates", "30"]) == 0
    report = capsys.readouterr().out
    assert report.index("## Strict") < report.index("## Judge: deterministic")
    table = judged[judged.index("| scenario |"):judged.index("### Severity bands")]
    assert table in report


def test_report_json_holds_the_judge_section_under_the_weights_asked_for(
        run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["judge", str(run), "--replicates", "20"]) == 0
    capsys.readouterr()
    assert main(["report", str(run), "--judge", "deterministic", "--weights", "uniform",
                 "--format", "json", "--replicates", "20"]) == 0
    section = json.loads(capsys.readouterr().out)["judge"]
    assert section["weights"] == "uniform" and set(section["weight_values"].values()) == {0.125}
    assert len(section["cells"]) == 18
    assert all(c["judged"] == 4 and c["unjudged"] == 0 for c in section["cells"])


def test_a_record_the_judge_never_saw_is_unjudged_not_left_out(
        run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["judge", str(run), "--replicates", "20"]) == 0
    with sqlite3.connect(run / "runs.sqlite") as db:
        (key,) = db.execute("SELECT key FROM judgments LIMIT 1").fetchone()
        db.execute("DELETE FROM judgments WHERE key=?", (key,))
    capsys.readouterr()
    assert main(["report", str(run), "--judge", "deterministic", "--format", "json",
                 "--replicates", "20"]) == 0
    cells = json.loads(capsys.readouterr().out)["judge"]["cells"]
    assert sum(c["records"] for c in cells) == 72
    assert sum(c["unjudged"] for c in cells) == 1


@pytest.mark.parametrize(("argv", "message"), [
    (["--judge", "openai:gpt-4o-mini"], "the run holds no judgments of it (it holds: none)"),
    (["--weights", "uniform"], "--weights applies to the judge tables: add --judge NAME"),
])
def test_bad_judge_options_are_one_line_and_exit_2(
        run: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert main(["report", str(run), *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err


def test_the_default_report_has_no_judge_part(tiny_run: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(tiny_run), "--replicates", "20"]) == 0
    assert "## Judge" not in capsys.readouterr().out
