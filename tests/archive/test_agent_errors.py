"""Agent errors survive the archive: exported in the allowlisted ``agent_error`` column,
kept by a recompute, and a row that dresses one up as a safe or abstaining record is
refused."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from simulator.archive import export_archive, load_archive
from simulator.errors import ArchiveError
from simulator.report.build import report_from_archive, report_from_store
from simulator.report.render import render
from simulator.testing import evaluate
from tests.agents.broken_agents import breaks_after_the_probe


@pytest.fixture(scope="module")
def broken_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("broken") / "run"
    evaluate(breaks_after_the_probe, scenarios=["clean", "stale_index"], tasks=3, out=out)
    return out


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in gzip.decompress(path.read_bytes()).splitlines()]


def test_an_archive_keeps_agent_errors_and_its_recompute_counts_them(
        broken_run: Path, tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl.gz"
    export_archive(broken_run, path)
    rows = _lines(path)[1:]
    assert len(rows) == 12 and all(r["agent_error"] is True for r in rows)
    assert all("reason" not in r for r in rows)  # archives keep no reasons
    recomputed = report_from_archive(path)
    assert recomputed.provenance.agent_errors == 12
    assert sum(c.agent_errors for a in recomputed.arms for c in a.scenario_modes) == 12
    concise = render(recomputed, "md")
    assert "**12 of 12 records are agent errors**" in concise
    from_store = render(report_from_store(broken_run), "md")
    assert "the agent raised RuntimeError: my agent is broken" in from_store
    assert "| agent |" in render(recomputed, "md", full=True)  # the failure-layer column


@pytest.mark.parametrize("change", [
    {"safe_resolution": True}, {"abstained": True}, {"failure_layer": "freshness"},
    {"agent_error": False},
], ids=["safe", "abstained", "another-layer", "flag-dropped"])
def test_an_agent_error_dressed_up_is_refused(broken_run: Path, tmp_path: Path,
                                              change: dict) -> None:
    path = tmp_path / "a.jsonl.gz"
    export_archive(broken_run, path)
    header, first, *rest = _lines(path)
    edited = tmp_path / "edited.jsonl.gz"
    text = "".join(json.dumps(x) + "\n" for x in (header, {**first, **change}, *rest))
    edited.write_bytes(gzip.compress(text.encode()))
    with pytest.raises(ArchiveError, match="line 2: field"):
        load_archive(edited)
