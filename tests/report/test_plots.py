"""Plots: three titled PNGs from a report; no forest plot without paired effects."""

from __future__ import annotations

from pathlib import Path

from simulator.report import build_report, write_plots
from simulator.stats.synthetic import synthetic_rows
from tests.report.report_rows import row

PNG = b"\x89PNG\r\n\x1a\n"


def test_a_report_with_both_modes_gets_three_plots(tmp_path: Path) -> None:
    report = build_report(synthetic_rows(models=2, tasks=12), replicates=100)
    written = write_plots(report, tmp_path / "plots")
    assert sorted(p.name for p in written) == [
        "groundedness_false_positives.png", "repair_effects_forest.png",
        "success_heatmap.png"]
    assert all(p.read_bytes().startswith(PNG) for p in written)


def test_the_same_report_draws_the_same_bytes(tmp_path: Path) -> None:
    report = build_report(synthetic_rows(models=1, tasks=6), replicates=50)
    first = write_plots(report, tmp_path / "a")
    second = write_plots(report, tmp_path / "b")
    assert [p.read_bytes() for p in first] == [p.read_bytes() for p in second]


def test_a_one_mode_report_has_no_forest_plot(tmp_path: Path) -> None:
    report = build_report([row(task_row=t) for t in range(3)], replicates=50)
    names = [p.name for p in write_plots(report, tmp_path)]
    assert "repair_effects_forest.png" not in names and len(names) == 2
