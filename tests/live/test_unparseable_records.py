"""Unparseable output through the whole path: a live run whose model answers outside the
contract stores reader errors (failure layer ``reader``, neither abstained nor safe), its
archive carries the ``reader_error`` column, and a recompute of that archive alone reports
them apart from wrong answers (issue 14, items 4 and 7)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.archive import load_archive
from simulator.cli.main import main
from simulator.runner.store import RunStore
from tests.conftest import TINY_SPEC
from tests.live.fake_provider import Answer, FakeProvider, Malformed, Request

PREFLIGHT = {"answer": "30 days", "citations": ["preflight-1"], "abstain": False,
             "reason": None}
NEITHER = json.dumps({"answer": None, "citations": [], "abstain": False, "reason": None})


def unparseable(request: Request) -> Answer | Malformed:
    """Every record's answer is off the contract: prose, then neither answer nor abstention."""
    if "preflight marker policy" in request.prompt:
        return Answer(PREFLIGHT)
    return Malformed(NEITHER if "stale" in request.prompt.lower() or len(request.prompt) % 2
                     else "The answer is 30 days.")


def test_reader_errors_survive_the_archive_and_are_reported_apart(
        tmp_path: Path, canary_keys: dict, capsys: pytest.CaptureFixture[str]) -> None:
    run, archive = tmp_path / "run", tmp_path / "a.jsonl.gz"
    with FakeProvider(handler=unparseable) as fake:
        main(["run", "--out", str(run), "--spec", str(TINY_SPEC), "--model", "openai:m1",
              "--base-url", fake.url, "--scenarios", "clean,stale_index,wrong_session",
              "--modes", "strict", "--tasks", "6", "--cache", "off", "--backoff", "0",
              "--no-progress", "--format", "none"])
    with RunStore(run, create=False) as store:
        records = list(store.records())
    prompted = [r for r in records if r.prompt_hash is not None]
    assert prompted and all(r.reader_error and not r.provider_error for r in prompted)
    assert {r.failure_layer for r in prompted} == {"reader"}
    assert not any(r.abstained or r.safe_resolution for r in prompted)

    assert main(["archive", "export", str(run), "--out", str(archive)]) == 0
    rows = load_archive(archive).rows
    assert sum(r.reader_error for r in rows) == len(prompted)
    capsys.readouterr()
    assert main(["archive", "recompute", str(archive), "--full", "--replicates", "20"]) == 0
    report = capsys.readouterr().out
    header = next(line for line in report.splitlines()
                  if line.startswith("| scenario | mode | none"))
    assert "| unparseable |" in header and "| reader |" not in header  # no wrong answer here
    stale = next(line for line in report.splitlines()
                 if line.startswith("| stale_index | strict | 6 |"))
    assert stale.split(" | ")[-3:-1] == ["0", "6"]  # provider errors, unparseable
