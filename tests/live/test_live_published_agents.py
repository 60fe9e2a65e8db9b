"""The three published agents (examples/published) run live against the loopback fake
provider: every model call of their graphs (agent turns, the agentic-RAG grader, rewriter
and answering node) goes over HTTP through the model layerrag hands the factory, and the
records are scored from the tool calls they made (issue 26, point 7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.runner.store import RunStore
from tests.conftest import TINY_SPEC
from tests.live.fake_provider import FakeProvider

PUBLISHED = ("examples.published.rag_agent:build_agent",
             "examples.published.agentic_rag:build_agent",
             "examples.published.quickstart_react:build_agent")


@pytest.mark.parametrize("agent", PUBLISHED)
def test_a_published_agent_runs_live_with_faults_firing(
        tmp_path: Path, fake: FakeProvider, agent: str, canary_keys: dict) -> None:
    out = tmp_path / "live"
    code = main(["run", "--out", str(out), "--spec", str(TINY_SPEC), "--model", "openai:m1",
                 "--base-url", fake.url, "--timeout", "2", "--backoff", "0", "--no-progress",
                 "--agent", agent, "--scenarios", "clean,stale_index,permission_denied",
                 "--modes", "strict", "--cache", "off", "--format", "none"])
    assert code == 0
    with RunStore(out, create=False) as store:
        records = list(store.records())
    assert records and not [r for r in records if r.agent_error or r.provider_error
                            or r.reader_error]
    assert all(r.trace["tool_calls"] for r in records)
    by = {s: [r for r in records if r.scenario == s]
          for s in ("clean", "stale_index", "permission_denied")}
    assert sum(r.S for r in by["clean"]) > 0
    assert not any(r.S for r in by["stale_index"] + by["permission_denied"])
    assert all(r.abstained for r in by["permission_denied"])
    # every record's turn after its search went over the wire (first turns, the same for a
    # task in every scenario, may be shared)
    assert len([r for r in fake.requests if r.is_driven and not r.is_preflight]) \
        >= len(records)
