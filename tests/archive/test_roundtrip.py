"""A report of a run and a recompute of its exported archive agree exactly."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from simulator.archive import archive_from_store, load_archive
from simulator.cli.main import main

FAST = ["--replicates", "200"]


def _stdout(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 0
    return capsys.readouterr().out


@pytest.fixture
def run_and_archive(make_run: Callable[..., Path], tmp_path: Path) -> tuple[Path, Path]:
    run = make_run()
    out = tmp_path / "run.jsonl.gz"
    assert main(["archive", "export", str(run), "--out", str(out)]) == 0
    return run, out


def test_export_then_load_gives_back_the_rows_of_the_run(
        run_and_archive: tuple[Path, Path]) -> None:
    run, out = run_and_archive
    assert load_archive(out) == archive_from_store(run)


@pytest.mark.parametrize("fmt", ["md", "csv", "latex", "json"])
def test_report_and_recompute_print_identical_text(
        run_and_archive: tuple[Path, Path], fmt: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    run, out = run_and_archive
    capsys.readouterr()
    from_run = _stdout(["report", str(run), "--format", fmt, *FAST], capsys)
    from_archive = _stdout(["archive", "recompute", str(out), "--format", fmt, *FAST], capsys)
    assert from_run == from_archive
    assert from_run.strip()


def test_recompute_json_flag_is_the_json_format(run_and_archive: tuple[Path, Path],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    _, out = run_and_archive
    capsys.readouterr()
    flag = _stdout(["archive", "recompute", str(out), "--json", *FAST], capsys)
    named = _stdout(["archive", "recompute", str(out), "--format", "json", *FAST], capsys)
    assert flag == named


def test_recompute_with_the_crossed_bootstrap_reports_its_kind(
        run_and_archive: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    _, out = run_and_archive
    capsys.readouterr()
    body = json.loads(_stdout(["archive", "recompute", str(out), "--bootstrap", "crossed",
                               "--json", *FAST], capsys))
    assert body["provenance"]["bootstrap"] == "crossed"
    assert {e["effect"]["bootstrap"] for e in body["arms"][0]["effects"]} == {"crossed"}
    assert (body["model_units"], body["interval_caveat"]) == (
        2, "may under-cover across models")


def test_report_and_recompute_write_the_same_plots(
        run_and_archive: tuple[Path, Path], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    run, out = run_and_archive
    _stdout(["report", str(run), "--plots", str(tmp_path / "a"), *FAST], capsys)
    _stdout(["archive", "recompute", str(out), "--plots", str(tmp_path / "b"), *FAST], capsys)
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names == ["groundedness_false_positives.png", "repair_effects_forest.png",
                     "success_heatmap.png"]
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_an_unknown_format_exits_2_with_a_suggestion(
        run_and_archive: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    run, _ = run_and_archive
    assert main(["report", str(run), "--format", "cvs"]) == 2
    assert "Did you mean: csv?" in capsys.readouterr().err
