"""Renderers lay out the same Report in Markdown, CSV, LaTeX and JSON."""

from __future__ import annotations

import csv
import io
import json

import pytest

from simulator.errors import UsageError
from simulator.report import FORMATS, Report, build_report, render
from simulator.report.tidy import COLUMNS
from simulator.stats.synthetic import synthetic_rows
from tests.report.report_rows import row


@pytest.fixture(scope="module")
def report() -> Report:
    return build_report(synthetic_rows(models=2, tasks=12), replicates=200)


def test_the_formats_are_md_csv_latex_and_json() -> None:
    assert set(FORMATS) == {"md", "csv", "latex", "json"}


def test_markdown_has_every_section(report: Report) -> None:
    text = render(report, "md")
    for heading in ("## Strict success by scenario and contract mode",
                    "## Paired repair − strict effects", "## Failure layers",
                    "## Model and provider averages", "## Largest strict-to-repair gains",
                    "## Prompt hashes", "## Notes"):
        assert heading in text
    assert "Specificity margin of schema repair" in text


def test_markdown_headed_per_arm_only_when_there_are_several() -> None:
    one = render(build_report(synthetic_rows(models=1, tasks=6), replicates=50), "md")
    two = render(build_report(synthetic_rows(models=1, tasks=6, arms=("a", "b")),
                              replicates=50), "md")
    assert "## Arm" not in one
    assert "## Arm `a`" in two and "## Arm `b`" in two


def test_a_single_model_unit_is_called_out_in_the_notes() -> None:
    text = render(build_report(synthetic_rows(models=1, tasks=6), replicates=50), "md")
    assert "single model unit" in text


def test_no_negative_zero_is_ever_printed(report: Report) -> None:
    for fmt in ("md", "latex"):
        assert "-0.0 " not in render(report, fmt) and "-0.0]" not in render(report, fmt)


def test_csv_is_tidy_with_one_number_per_line(report: Report) -> None:
    lines = list(csv.DictReader(io.StringIO(render(report, "csv"))))
    assert tuple(lines[0]) == COLUMNS
    drift = [r for r in lines if r["section"] == "repair_effect"
             and r["scenario"] == "schema_drift" and r["metric"] == "S"]
    assert len(drift) == 1 and float(drift[0]["low"]) <= float(drift[0]["value"])


def test_latex_escapes_underscores_in_scenario_names(report: Report) -> None:
    text = render(report, "latex")
    assert r"schema\_drift" in text and "schema_drift" not in text.replace(r"\_", "")
    assert text.count(r"\begin{table}") == text.count(r"\end{table}") >= 2


def test_json_is_the_report_model(report: Report) -> None:
    data = json.loads(render(report, "json"))
    assert data["provenance"]["records"] == report.provenance.records
    assert data["arms"][0]["scenario_modes"][0]["success_rate"] is not None


def test_an_unknown_format_suggests_the_closest(report: Report) -> None:
    with pytest.raises(UsageError, match="Did you mean: latex"):
        render(report, "latx")


def test_a_one_mode_report_says_why_it_has_no_effects() -> None:
    text = render(build_report([row(task_row=t) for t in range(3)], replicates=50), "md")
    assert "Needs both strict and repair records" in text


def test_latex_output_is_plain_ascii_apart_from_escapes(report: Report) -> None:
    assert render(report, "latex").isascii()
