"""Judge scores in archives (issue 30, item 7): allowlisted columns of scores and bands, no
justification or judge prose, the judge and its rubric hash in the header, and the judge
table recomputed from the archive alone."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from simulator.archive.codec import load_archive
from simulator.cli.main import main
from simulator.judge.metrics import METRIC_NAMES


def _cells(data: dict) -> list[dict]:
    return [{k: v for k, v in c.items() if k != "main_issue"} for c in data["cells"]]


def test_an_archive_with_judge_columns_recomputes_the_judge_table(
        run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["judge", str(run), "--json", "--replicates", "50"]) == 0
    direct = json.loads(capsys.readouterr().out)
    out = tmp_path / "judged.jsonl.gz"
    assert main(["archive", "export", str(run), "--out", str(out),
                 "--judge", "deterministic"]) == 0
    archive = load_archive(out)
    assert archive.header.judge is not None
    assert archive.header.judge.name == "deterministic"
    assert archive.header.judge.rubric_hash == direct["rubric_hash"]
    assert "judge_retrieval_correctness_band" in archive.header.fields
    text = gzip.decompress(out.read_bytes()).decode()
    assert "justification" not in text and "superseded version" not in text
    capsys.readouterr()
    assert main(["judge", str(out), "--json", "--replicates", "50"]) == 0
    recomputed = json.loads(capsys.readouterr().out)
    assert _cells(recomputed) == _cells(direct)
    assert main(["archive", "recompute", str(out)]) == 0  # the report reads it as before


def test_export_without_judge_is_unchanged_and_bad_judge_columns_are_refused(
        run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plain = tmp_path / "plain.jsonl.gz"
    assert main(["archive", "export", str(run), "--out", str(plain)]) == 0
    assert not any(f.startswith("judge") for f in load_archive(plain).header.fields)
    assert main(["archive", "export", str(run), "--out", str(plain),
                 "--judge", "openai:never"]) == 2
    assert "holds no judgments of it" in capsys.readouterr().err
    assert main(["judge", str(run)]) == 0
    judged = tmp_path / "judged.jsonl.gz"
    assert main(["archive", "export", str(run), "--out", str(judged),
                 "--judge", "deterministic"]) == 0
    lines = gzip.decompress(judged.read_bytes()).decode().splitlines()
    row = json.loads(lines[1])
    name = next(f"judge_{m}" for m in METRIC_NAMES if row.get(f"judge_{m}") is not None)
    row[f"{name}_band"] = "severe" if row[f"{name}_band"] != "severe" else "none"
    tampered = tmp_path / "tampered.jsonl.gz"
    tampered.write_bytes(gzip.compress("\n".join([lines[0], json.dumps(row), *lines[2:]])
                                       .encode() + b"\n"))
    capsys.readouterr()
    assert main(["judge", str(tampered)]) == 2
    err = capsys.readouterr().err
    assert f"{name}_band" in err and "does not match score" in err and len(err.splitlines()) == 1
    assert main(["judge", str(plain)]) == 2
    assert "holds no judge scores" in capsys.readouterr().err
