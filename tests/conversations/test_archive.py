"""A cases run's archive: one privacy-safe row per turn with its case and turn indices and
flags, no message, reply or identifier value; recomputed, it gives the run's report."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.runner.store import RunStore


def test_the_archive_recomputes_the_cases_report_and_holds_no_text(
        cases_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    archive = tmp_path / "cases.jsonl.gz"
    assert main(["archive", "export", str(cases_run), "--out", str(archive)]) == 0
    capsys.readouterr()
    assert main(["report", str(cases_run), "--format", "json", "--replicates", "50"]) == 0
    from_run = json.loads(capsys.readouterr().out)
    assert main(["archive", "recompute", str(archive), "--json", "--replicates", "50"]) == 0
    from_archive = json.loads(capsys.readouterr().out)
    assert from_archive == from_run
    lines = gzip.decompress(archive.read_bytes()).decode().splitlines()
    header, rows = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    assert header["fault_turns"] == "at:2"
    assert {"case_id", "case_turn", "turn_safe", "identifier_exact", "memory"} <= set(rows[0])
    with RunStore(cases_run, create=False) as store:
        records = list(store.records())
    assert len(rows) == len(records)
    text = "\n".join(lines)
    for r in records[:200]:
        assert r.case is not None and r.case.message not in text
        if r.case.reply is not None and len(r.case.reply.text) > 20:
            assert r.case.reply.text not in text
        for identifier in r.case.reply.identifiers if r.case.reply else ():
            assert f'"{identifier}"' not in text
