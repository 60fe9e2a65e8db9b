"""with_faults: a scenario's faults around any plain tool callable."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from middleware import FaultContext, check_contract, with_faults
from simulator.corpus import Labels, Task
from simulator.endpoints import PolicyEnvironment
from simulator.errors import UsageError


def my_search(query: str, session: dict[str, Any]) -> dict[str, Any]:
    """A user's own tool: a fixed v2-shaped answer."""
    return {"schema_version": "2", "query": query, "session_id": session["session_id"],
            "tenant": "t", "hits": [{
                "doc_id": "d1", "title": "T", "text": "Refunds take 5 days.", "score": 1.0,
                "rank": 0, "metadata": {"domain": "returns", "status": "current",
                                        "effective_year": 2025, "version": "v1",
                                        "access_group": "all", "tenant": "t"}}],
            "index": {"snapshot_id": "mine", "built_year": 2025, "document_count": 1}}


def test_payload_faults_wrap_any_json_tool() -> None:
    faulty = with_faults(my_search, "schema_drift")
    raw = faulty(query="refund?", session={"session_id": "s1"})
    assert raw["schema_version"] == "3"
    repaired = check_contract(raw, "repair")
    assert repaired.payload == check_contract(my_search("refund?", {"session_id": "s1"})).payload


def test_a_missing_output_draw_is_reproducible_without_a_task() -> None:
    faulty = with_faults(my_search, "missing_tool_output")
    ctx = FaultContext(seed=3)
    first = faulty(query="q", session={"session_id": "s"}, fault_context=ctx)
    assert first == faulty(query="q", session={"session_id": "s"}, fault_context=ctx)
    assert check_contract(first).status == "missing"


def test_endpoint_faults_are_refused_at_wrap_time_for_a_tool_without_conditions() -> None:
    with pytest.raises(UsageError, match="no 'conditions' parameter"):
        with_faults(my_search, "stale_index")


def test_the_environment_endpoint_honours_every_fault(env: PolicyEnvironment,
                                                      records: list[tuple[Task, Labels]]
                                                      ) -> None:
    task, labels = records[0]
    stale = with_faults(env.search_policies, "stale_index")
    raw = stale(query=task.question, session=task.session,
                fault_context=FaultContext(task=task))
    assert raw["index"]["snapshot_id"] != "live"


def test_an_async_tool_is_awaited() -> None:
    async def my_async_search(query: str, session: dict[str, Any]) -> dict[str, Any]:
        return my_search(query, session)

    faulty = with_faults(my_async_search, "schema_drift")
    raw = asyncio.run(faulty.acall(query="q", session={"session_id": "s"}))
    assert raw["schema_version"] == "3"


def test_a_tool_returning_something_other_than_json_is_a_usage_error() -> None:
    faulty = with_faults(lambda query: "plain words", "schema_drift")
    with pytest.raises(UsageError, match="not JSON"):
        faulty(query="q")
