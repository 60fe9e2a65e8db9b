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


def test_full_markdown_has_every_section(report: Report) -> None:
    text = render(report, "md", full=True)
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
    text = render(build_report(synthetic_rows(models=1, tasks=6), replicates=50), "md",
                  full=True)
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
    text = render(build_report([row(task_row=t) for t in range(3)], replicates=50), "md",
                  full=True)
    assert "Needs both strict and repair records" in text


def test_latex_output_is_plain_ascii_apart_from_escapes(report: Report) -> None:
    assert render(report, "latex").isascii()


def test_a_single_model_report_says_its_intervals_cover_task_sampling_for_that_model() -> None:
    text = render(build_report(synthetic_rows(models=1, tasks=6), replicates=50), "md")
    assert ("95 % intervals: nested bootstrap over 1 model unit and 2 policy units; covers "
            "task sampling for this model only.") in text
    assert "- bootstrap: nested, 50 replicates, seed 0" in text


def test_a_few_model_units_may_under_cover_across_models(report: Report) -> None:
    text = render(report, "md", full=True)
    assert "over 2 model units and 4 policy units; may under-cover across models." in text
    assert "This report has 2 model units, fewer than 10" in text


def test_ten_model_units_carry_no_caveat() -> None:
    report = build_report(synthetic_rows(models=10, tasks=6), replicates=20)
    text = render(report, "md")
    assert report.interval_caveat is None
    assert "over 10 model units and 2 policy units." in text and "under-cover" not in text


def test_a_crossed_report_names_its_bootstrap_in_every_format() -> None:
    report = build_report(synthetic_rows(models=2, tasks=6), replicates=50, bootstrap="crossed")
    assert "- bootstrap: crossed," in render(report, "md")
    assert "crossed bootstrap over 2 model units" in render(report, "latex")
    data = json.loads(render(report, "json"))
    assert data["provenance"]["bootstrap"] == "crossed"
    assert {e["effect"]["bootstrap"] for e in data["arms"][0]["effects"]} == {"crossed"}


def test_json_carries_the_design_of_every_interval(report: Report) -> None:
    data = json.loads(render(report, "json"))
    assert (data["model_units"], data["policy_units"]) == (2, 4)
    assert data["interval_caveat"] == "may under-cover across models"
    effect = data["arms"][0]["effects"][0]["effect"]
    assert (effect["bootstrap"], effect["model_units"], effect["policy_units"]) == (
        "nested", 2, 4)


def test_csv_gives_the_design_and_the_caveat(report: Report) -> None:
    lines = list(csv.DictReader(io.StringIO(render(report, "csv"))))
    provenance = {r["metric"]: r["value"] for r in lines if r["section"] == "provenance"}
    assert (provenance["bootstrap"], provenance["model_units"], provenance["policy_units"]) == (
        "nested", "2", "4")
    assert provenance["interval_caveat"] == "may under-cover across models"
    drift = {r["metric"]: r["value"] for r in lines if r["section"] == "repair_effect"
             and r["scenario"] == "schema_drift"}
    assert (drift["model_units"], drift["policy_units"]) == ("2", "4")


def test_latex_captions_the_effects_with_their_caveat(report: Report) -> None:
    assert ("95 \\% intervals: nested bootstrap over 2 model units and 4 policy units; may "
            "under-cover across models.") in render(report, "latex")
