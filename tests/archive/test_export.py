"""Export writes a header and allowlisted rows only, deterministically."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from simulator.archive import ARCHIVE_VERSION, export_archive, load_archive
from simulator.archive.row import REQUIRED_FIELDS
from simulator.cli.main import main
from simulator.errors import ArchiveError
from tests.archive.run_factory import RUN_ID, manifest, record_from_row, small_rows

HEADER_KEYS = ["archive_version", "run_id", "created", "corpus_hash",
               "prompt_template_hashes", "versions", "fields", "rows_sha256"]


def _lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in gzip.decompress(path.read_bytes()).splitlines()]


def test_export_writes_a_header_then_one_row_per_record(make_run: Callable[..., Path],
                                                        tmp_path: Path) -> None:
    out = tmp_path / "a.jsonl.gz"
    summary = export_archive(make_run(), out)
    header, *rows = _lines(out)
    assert list(header) == HEADER_KEYS
    assert header["archive_version"] == ARCHIVE_VERSION
    assert header["run_id"] == RUN_ID
    assert header["corpus_hash"] == "0123456789abcdef"
    assert header["fields"] == list(REQUIRED_FIELDS)
    assert len(rows) == summary.rows == len(small_rows())


def test_every_row_holds_exactly_the_allowlisted_fields(make_run: Callable[..., Path],
                                                        tmp_path: Path) -> None:
    out = tmp_path / "a.jsonl.gz"
    export_archive(make_run(), out)
    _, *rows = _lines(out)
    assert all(list(row) == list(REQUIRED_FIELDS) for row in rows)


def test_booleans_are_json_booleans_and_a_missing_prompt_is_null(
        make_run: Callable[..., Path], tmp_path: Path) -> None:
    out = tmp_path / "a.jsonl.gz"
    export_archive(make_run(), out)
    _, *rows = _lines(out)
    assert all(type(row[f]) is bool for row in rows for f in ("E", "R", "G", "V", "S"))
    assert all(type(row[f]) is int for row in rows for f in ("task_row", "unit", "variant"))
    no_prompt = [r for r in rows if r["scenario"] == "permission_denied"]
    assert no_prompt and all(r["prompt_hash"] is None for r in no_prompt)


def test_the_same_run_exports_byte_identical_files(make_run: Callable[..., Path],
                                                   tmp_path: Path) -> None:
    run = make_run()
    first = export_archive(run, tmp_path / "one" / "x.jsonl.gz")
    second = export_archive(run, tmp_path / "two" / "other-name.jsonl.gz")
    assert (tmp_path / "one" / "x.jsonl.gz").read_bytes() == \
        (tmp_path / "two" / "other-name.jsonl.gz").read_bytes()
    assert first.sha256 == second.sha256


def test_insertion_order_does_not_change_the_archive(make_run: Callable[..., Path],
                                                     tmp_path: Path) -> None:
    records = [record_from_row(r) for r in small_rows()]
    forward = export_archive(make_run(records, name="fwd"), tmp_path / "f.jsonl.gz")
    backward = export_archive(make_run(records[::-1], name="bwd"), tmp_path / "b.jsonl.gz")
    assert forward.sha256 == backward.sha256


def test_prompt_template_hashes_come_from_the_manifest_and_default_to_empty(
        make_run: Callable[..., Path], tmp_path: Path) -> None:
    with_templates = tmp_path / "t.jsonl.gz"
    export_archive(make_run(name="t"), with_templates)
    without = manifest()
    del without["prompt_template_hashes"]
    bare = tmp_path / "b.jsonl.gz"
    export_archive(make_run(run_manifest=without, name="b"), bare)
    assert load_archive(with_templates).header.prompt_template_hashes == {"reader": "ab" * 32}
    assert load_archive(bare).header.prompt_template_hashes == {}


def test_a_record_of_another_run_is_refused(make_run: Callable[..., Path],
                                            tmp_path: Path) -> None:
    records = [record_from_row(r) for r in small_rows(run_id="someone-else")]
    with pytest.raises(ArchiveError, match="one run"):
        export_archive(make_run(records), tmp_path / "x.jsonl.gz")


def test_prose_in_the_prompt_hash_field_is_refused(make_run: Callable[..., Path],
                                                   tmp_path: Path) -> None:
    record = record_from_row(small_rows()[0]).model_copy(
        update={"prompt_hash": "the full prompt text"})
    with pytest.raises(ArchiveError, match="prompt_hash"):
        export_archive(make_run([record]), tmp_path / "x.jsonl.gz")


def test_a_manifest_without_a_corpus_hash_is_refused(make_run: Callable[..., Path],
                                                     tmp_path: Path) -> None:
    bad = manifest()
    del bad["corpus_hash"]
    with pytest.raises(ArchiveError, match="corpus_hash"):
        export_archive(make_run(run_manifest=bad), tmp_path / "x.jsonl.gz")


def test_export_command_writes_the_file_and_says_where(
        make_run: Callable[..., Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli.jsonl.gz"
    assert main(["archive", "export", str(make_run()), "--out", str(out)]) == 0
    assert out.is_file()
    assert f"rows to {out}" in capsys.readouterr().out


def test_export_of_a_directory_without_a_run_exits_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["archive", "export", str(tmp_path / "nothing"), "--out",
                 str(tmp_path / "x.jsonl.gz")])
    assert code == 2
    assert "no run store" in capsys.readouterr().err


def test_an_open_pipeline_run_says_so_in_its_header_and_report(
        make_run: Callable[..., Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
        ) -> None:
    """The paper pipeline is the default and is left out, as in archives made before."""
    paper, open_ = tmp_path / "paper.jsonl.gz", tmp_path / "open.jsonl.gz"
    export_archive(make_run(name="p"), paper)
    config = {**manifest()["config"], "pipeline": "open"}
    export_archive(make_run(run_manifest=manifest(config=config), name="o"), open_)
    assert "pipeline" not in _lines(paper)[0]
    assert _lines(open_)[0]["pipeline"] == "open"
    assert load_archive(paper).header.pipeline == "paper"
    assert load_archive(open_).header.pipeline == "open"
    for path, shown in ((paper, False), (open_, True)):
        assert main(["archive", "recompute", str(path), "--replicates", "50"]) == 0
        assert ("- pipeline: open" in capsys.readouterr().out) is shown


def test_an_unknown_pipeline_in_a_header_is_refused(make_run: Callable[..., Path],
                                                     tmp_path: Path) -> None:
    path = tmp_path / "x.jsonl.gz"
    export_archive(make_run(), path)
    header, *rows = gzip.decompress(path.read_bytes()).splitlines(keepends=True)
    body = json.loads(header)
    body["pipeline"] = "closed"
    path.write_bytes(gzip.compress(json.dumps(body).encode() + b"\n" + b"".join(rows)))
    with pytest.raises(ArchiveError, match="pipeline"):
        load_archive(path)


def test_a_reader_error_adds_the_reader_error_column_and_survives_a_recompute(
        make_run: Callable[..., Path], tmp_path: Path) -> None:
    records = [record_from_row(r) for r in small_rows()]
    i = next(i for i, r in enumerate(records) if r.failure_layer == "freshness")
    records[i] = records[i].model_copy(update={
        "reader_error": True, "failure_layer": "reader", "abstained": False,
        "safe_resolution": False})
    out = tmp_path / "a.jsonl.gz"
    export_archive(make_run(records), out)
    header, *rows = _lines(out)
    fields = header["fields"]
    assert isinstance(fields, list)
    assert fields[fields.index("provider_error") + 1] == "reader_error"
    assert [r["reader_error"] for r in rows].count(True) == 1
    unparseable = [r for r in load_archive(out).rows if r.reader_error]
    assert [(r.failure_layer, r.abstained) for r in unparseable] == [("reader", False)]


def test_an_archive_without_reader_errors_has_no_reader_error_column(
        make_run: Callable[..., Path], tmp_path: Path) -> None:
    out = tmp_path / "a.jsonl.gz"
    export_archive(make_run(), out)
    header, *rows = _lines(out)
    assert "reader_error" not in header["fields"]  # type: ignore[operator]
    assert all("reader_error" not in r for r in rows)
