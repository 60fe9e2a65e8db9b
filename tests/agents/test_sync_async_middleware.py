"""A user middleware with only the sync hooks, or only the async ones, runs offline with
the same records: the preflight finds which invocation the graph accepts."""

from __future__ import annotations

from typing import Any

from simulator.runner.record import RunRecord
from simulator.testing import evaluate
from tests.agents.broken_agents import REWRITES, async_only, sync_only

SCENARIOS = ["clean", "schema_drift", "permission_denied"]


def outcomes(records: tuple[RunRecord, ...]) -> dict[tuple[str, str, str], tuple[Any, ...]]:
    return {(r.scenario, r.contract_mode, r.task_id):
            (r.S, r.answer, r.citations, r.abstained, r.agent_error, r.prompt_hash,
             len(r.trace["tool_calls"])) for r in records}


def test_sync_only_and_async_only_middleware_give_the_same_records() -> None:
    REWRITES.clear()
    synced = evaluate(sync_only, scenarios=SCENARIOS, tasks=4).records
    assert len(REWRITES) >= 24  # the sync hook ran on every record's search (and the probe)
    awaited = evaluate(async_only, scenarios=SCENARIOS, tasks=4).records
    assert len(synced) == 24
    assert not any(r.agent_error or r.reader_error for r in synced)
    assert outcomes(synced) == outcomes(awaited)
    assert any(r.S for r in synced)
