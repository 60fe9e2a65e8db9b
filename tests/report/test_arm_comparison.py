"""Runs with several arms get a side-by-side table with incorrect interventions."""

from __future__ import annotations

from simulator.report import build_report, render
from tests.report.report_rows import row, success


def _rows() -> list:
    out = []
    for task in range(4):
        out.append(success(arm="uncontrolled", task_row=task, unit=task))
    # controlled: right on task 0, a non-answer on an answerable task 1 (intervention), a
    # wrong answer on task 2 (not an intervention), a safe non-answer on task 3.
    out.append(success(arm="controlled", task_row=0, unit=0))
    out.append(row(arm="controlled", task_row=1, unit=1, abstained=True, safe_resolution=False,
                   failure_layer="abstained"))
    out.append(row(arm="controlled", task_row=2, unit=2))
    out.append(row(arm="controlled", task_row=3, unit=3, abstained=True, safe_resolution=True,
                   failure_layer="abstained"))
    return out


def test_incorrect_interventions_count_only_non_answers_where_uncontrolled_was_right() -> None:
    report = build_report(_rows(), replicates=50)
    cells = {c.arm: c for c in report.arm_comparison}
    assert [c.arm for c in report.arm_comparison] == ["uncontrolled", "controlled"]
    assert cells["controlled"].incorrect_interventions == 1
    assert cells["uncontrolled"].incorrect_interventions == 0
    assert cells["controlled"].S == 0.25 and cells["controlled"].safe_resolution == 0.5
    assert "## Arms compared" in render(report, "md")


def test_a_single_arm_report_has_no_comparison() -> None:
    report = build_report([r for r in _rows() if r.arm == "uncontrolled"], replicates=50)
    assert report.arm_comparison == []
    assert "## Arms compared" not in render(report, "md")


def test_every_format_carries_the_comparison() -> None:
    report = build_report(_rows(), replicates=50)
    csv_lines = render(report, "csv").splitlines()
    assert ("arm_comparison,controlled,,,clean,strict,incorrect_interventions,1,,"
            in csv_lines)
    assert "arm_comparison,controlled,,,clean,strict,S,0.25,," in csv_lines
    latex = render(report, "latex")
    assert r"\label{tab:arms}" in latex
    assert r"controlled & clean & strict & 4 & 0.250 & 0.500 & 1 & 0 & 0 & 0 \\" in latex
    assert render(report, "json").count('"incorrect_interventions"') == 2


def test_single_arm_csv_and_latex_have_no_comparison() -> None:
    report = build_report([r for r in _rows() if r.arm == "uncontrolled"], replicates=50)
    assert "arm_comparison" not in render(report, "csv")
    assert "tab:arms" not in render(report, "latex")
