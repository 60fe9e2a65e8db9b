"""The page ``layerrag view`` writes, read as a file: self-contained, bounded, honest about
what it carries, and refusing bad input in one line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.report import view
from tests.cli.test_bad_input import one_line_error
from tests.view.page_data import meta, packed

ROOT = Path(__file__).resolve().parents[2]
ARCHIVE = ROOT / "archives" / "deterministic" / "enterprise_v2.jsonl.gz"


def test_the_full_run_fits_in_one_small_file_with_every_record(full_page: Path) -> None:
    assert full_page.stat().st_size <= 10_000_000
    page = full_page.read_text()
    records = packed(page)
    assert len(records) == 4320
    fields = meta(page)["fields"]
    assert isinstance(fields, list)
    trajectory = records[0][fields.index("trajectory")]
    assert isinstance(trajectory, dict) and trajectory["verdict"]["expected_answer"]


def test_the_page_names_no_outside_resource(full_page: Path) -> None:
    page = full_page.read_text()
    assert "http://" not in page and "https://" not in page
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=", page)


def test_the_heatmap_is_the_reports_own(full_page: Path, deterministic_run: Path) -> None:
    from simulator.report.build import report_from_store

    report = report_from_store(deterministic_run, replicates=50)
    heat = meta(full_page.read_text())["heatmaps"]
    assert heat == view.heatmaps(report)


def test_an_archive_gives_aggregates_only_and_says_why(tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    out = tmp_path / "archive.html"
    assert main(["view", str(ARCHIVE), "--out", str(out), "--replicates", "50"]) == 0
    page = out.read_text()
    assert packed(page) == []
    assert "keeps no trajectories" in str(meta(page)["archive_note"])
    assert "<table>" in page  # the report's tables
    assert not re.search(r"doc_[0-9a-f]{6}", page)  # no document id


def test_above_the_cap_a_seeded_sample_is_kept_and_said(deterministic_run: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    monkeypatch.setattr(view, "RECORD_CAP", 100)
    first, total = view.run_records([deterministic_run])
    second, _ = view.run_records([deterministic_run])
    assert (len(first), total) == (100, 4320) and first == second
    assert len({r[0:6].__repr__() for r in first}) == 100


def test_report_text_is_escaped() -> None:
    assert view.markdown_html("| a |\n|---|\n| <script>x</script> |") == (
        "<table><thead><tr><th>a</th></tr></thead><tbody><tr><td>&lt;script&gt;x&lt;/script"
        "&gt;</td></tr></tbody></table>")


@pytest.mark.parametrize(("argv", "names"), [
    (["nowhere", "--out", "x.html"], "nowhere: no such run directory"),
    ([str(ARCHIVE), str(ARCHIVE), "--out", "x.html"], "an archive is viewed on its own"),
])
def test_bad_input_is_one_line(argv: list[str], names: str, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str],
                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert names in one_line_error(capsys, "view", *argv)


def test_an_out_that_is_a_directory_is_refused(tmp_path: Path, deterministic_run: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert "is a directory" in one_line_error(capsys, "view", str(deterministic_run),
                                              "--out", str(tmp_path))
