"""``layerrag judge``: the table, its JSON, and bad input as one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.cli.main import main


def test_judge_prints_every_scenario_and_mode_with_intervals(
        small_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["judge", str(small_run), "--judge", "deterministic",
                 "--replicates", "50"]) == 0
    out = capsys.readouterr()
    assert "| stale_index | strict |" in out.out and "| wrong_session | repair |" in out.out
    assert "S_final" in out.out and "Severity bands" in out.out
    assert "identifier_integrity" in out.out  # named as not applicable
    assert "judged 432 records, 0 unjudged" in out.err


def test_judge_json_has_one_cell_per_scenario_and_mode(
        small_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["judge", str(small_run), "--weights", "uniform", "--json",
                 "--replicates", "20"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["weights"] == "uniform" and data["judge"] == "deterministic"
    assert len(data["cells"]) == 18
    assert data["cells"][0]["metrics"]["identifier_integrity"] is None


@pytest.mark.parametrize(("argv", "message"), [
    (["--weights", "heavy"], "--weights heavy: neither a profile"),
    (["--judge", "gpt-4o"], "unknown judge"),
    (["--judge", "nope:m"], "expected deterministic or PROVIDER:MODEL"),
    (["--base-url", "http://127.0.0.1:9"], "--base-url applies to an LLM judge"),
    (["--replicates", "0"], "--replicates must be at least 1"),
])
def test_bad_input_is_one_line_and_exit_2(small_run: Path, capsys: pytest.CaptureFixture[str],
                                          argv: list[str], message: str) -> None:
    assert main(["judge", str(small_run), *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err


def test_a_directory_without_a_run_is_refused(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["judge", str(tmp_path)]) == 2
    assert "no run store" in capsys.readouterr().err
