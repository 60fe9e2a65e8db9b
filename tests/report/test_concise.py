"""The default report is concise; ``--full`` prints every table. Provider and reader errors
are in no numerator and in their own columns; the report says what "safe" counts."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.report import build_report, render, report_from_archive
from simulator.report.markdown import ARM_SECTIONS
from simulator.stats.synthetic import synthetic_rows
from tests.report.report_rows import row, success

ARCHIVE = Path(__file__).resolve().parents[2] / "archives" / "deterministic" / \
    "enterprise_v2.jsonl.gz"


def test_the_default_report_is_one_table_per_arm_and_notes() -> None:
    report = build_report(synthetic_rows(models=1, tasks=6), replicates=50)
    concise, full = render(report, "md"), render(report, "md", full=True)
    assert "## Strict success and safe resolution by scenario" in concise
    assert "## Failure layers" not in concise and "## Failure layers" in full
    assert "## Strict success and safe resolution by scenario" not in full
    assert "add `--full`" in concise and "add `--full`" not in full
    assert len(concise.splitlines()) * 2 < len(full.splitlines())


def test_the_committed_archive_reports_in_well_under_half_the_full_length() -> None:
    report = report_from_archive(ARCHIVE, replicates=50)
    concise = render(report, "md").splitlines()
    assert len(concise) * 2 < len(render(report, "md", full=True).splitlines())
    summary = next(line for line in concise if line.startswith("| schema_drift |"))
    assert summary.split(" | ")[2:5] == ["0.000", "0.879", "+87.9"]  # S strict, repair, Δ


@pytest.mark.parametrize("full", [False, True])
def test_the_report_says_what_safe_counts(full: bool) -> None:
    text = render(build_report(synthetic_rows(models=1, tasks=6), replicates=50), "md",
                  full=full)
    note = next(line for line in text.splitlines() if line.startswith("- safe (safe "))
    assert "answerable" in note and "structured non-answer" in note
    assert "A provider error, an agent error or an unparseable answer is never safe" in note


def test_provider_and_reader_errors_are_in_no_numerator_and_in_their_own_columns() -> None:
    # Legacy-shaped error rows (stand-in answers flagged abstained and safe) must not count.
    rows = [success(task_row=0),
            row(task_row=1, abstained=True, safe_resolution=True, failure_layer="abstained"),
            row(task_row=2, provider_error=True, abstained=True, safe_resolution=True,
                failure_layer="provider"),
            row(task_row=3, reader_error=True, failure_layer="reader"),
            row(task_row=4)]
    cell = build_report(rows, replicates=20).arms[0].scenario_modes[0]
    assert (cell.records, cell.successes, cell.abstentions, cell.safe_resolutions) == (5, 1, 1, 2)
    assert (cell.provider_errors, cell.reader_errors) == (1, 1)
    report = build_report(rows, replicates=20)
    layers = report.arms[0].failure_layer_names
    assert layers.index("unparseable") == layers.index("reader") + 1
    counts = report.arms[0].failure_layers[0].counts
    assert (counts["reader"], counts["unparseable"], counts["provider"]) == (1, 1, 1)
    concise = render(report, "md")
    line = next(x for x in concise.splitlines() if x.startswith("| clean |"))
    assert line.endswith("| 1 | 0 | 1 |")  # provider errors, agent errors, unparseable
    assert "`unparseable`: reader errors" in render(report, "md", full=True)


def test_an_arm_that_repairs_in_strict_mode_explains_its_missing_margin() -> None:
    rows = [success(scenario=s, contract_mode=m, task_row=t, arm="controlled")
            for s in ("clean", "schema_drift", "stale_index") for m in ("strict", "repair")
            for t in range(4)]
    text = render(build_report(rows, replicates=20), "md")
    assert "= **0.0 pp**" not in text
    assert "No specificity margin for schema repair in this arm" in text
    assert "strict mode already succeeds on schema_drift" in text


def test_every_arm_section_says_which_length_shows_it() -> None:
    assert {s.shown for s in ARM_SECTIONS} <= {"concise", "full", "both"}
    assert any(s.shown != "full" for s in ARM_SECTIONS)


def test_report_and_recompute_take_full(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["archive", "recompute", str(ARCHIVE), "--replicates", "20", "--full"]) == 0
    full = capsys.readouterr().out
    assert main(["archive", "recompute", str(ARCHIVE), "--replicates", "20"]) == 0
    concise = capsys.readouterr().out
    assert "## Failure layers" in full and "## Failure layers" not in concise


def test_run_prints_the_concise_report_unless_asked_for_every_table(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.conftest import TINY_SPEC

    argv = ["run", "--out", str(tmp_path / "run"), "--spec", str(TINY_SPEC), "--tasks", "2",
            "--scenarios", "clean,schema_drift", "--no-progress"]
    assert main(argv) == 0
    concise = capsys.readouterr().out
    assert main([*argv, "--full"]) == 0  # resumes: nothing re-run, the report printed again
    full = capsys.readouterr().out
    assert "## Strict success and safe resolution by scenario" in concise
    assert "## Failure layers" not in concise and "## Failure layers" in full
