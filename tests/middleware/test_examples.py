"""The runnable examples run and show what they promise (docs/middleware.md links them)."""

from __future__ import annotations

import runpy
from pathlib import Path
from typing import Any

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _main(name: str) -> Any:
    return runpy.run_path(str(EXAMPLES / name))["main"]()


def test_a_users_own_create_agent_agent_runs_with_injected_faults(
        capsys: pytest.CaptureFixture[str]) -> None:
    answers = _main("langchain_create_agent.py")
    assert "unexpected shape (schema 3)" in answers["schema_drift"]
    assert "nothing usable" in answers["missing_tool_output"]
    assert answers["clean"] != answers["stale_index"]
    assert answers["async clean"] == answers["clean"]
    assert answers["async schema_drift"] == answers["schema_drift"]
    assert "schema_drift" in capsys.readouterr().out


def test_the_plain_tool_example_shows_strict_rejecting_and_repair_restoring() -> None:
    seen = _main("plain_tool.py")
    assert seen["schema_drift/strict"] == "invalid" and seen["schema_drift/repair"] == "ok"
    assert seen["missing_tool_output/repair"] == "missing"
    assert seen["stale_index/snapshot"].startswith("snapshot-")


def test_the_tool_chain_example_covers_all_nine_scenarios() -> None:
    statuses = _main("tool_chain.py")
    assert len(statuses) == 9
    assert statuses["schema_drift"] == ("invalid", "ok")
    assert statuses["missing_tool_output"] == ("missing", "missing")
    assert statuses["clean"] == ("ok", "ok")


def test_the_docs_reference_every_example() -> None:
    doc = "".join(p.read_text() for p in (EXAMPLES.parent / "docs").glob("*.md"))
    for example in EXAMPLES.glob("*.py"):
        assert f"examples/{example.name}" in doc
