"""Wrap any plain tool callable in a scenario's faults, then apply a contract mode.

Run:  python examples/plain_tool.py

Payload faults (schema drift, missing output) work on any tool that returns a JSON object.
Faults that change the endpoint's state (stale index, shard outage, revoked access, session
cache) need a tool that accepts ``conditions``, such as ``PolicyEnvironment.search_policies``.
"""

from __future__ import annotations

from typing import Any

from middleware import FaultContext, check_contract, with_faults
from simulator.corpus import build_corpus
from simulator.endpoints import PolicyEnvironment


def my_search(query: str, session: dict[str, Any]) -> dict[str, Any]:
    """Your own search tool, answering in layerrag's schema v2."""
    return {
        "schema_version": "2", "query": query, "session_id": session["session_id"],
        "tenant": "example-co",
        "hits": [{"doc_id": "kb-17", "title": "Refund timing",
                  "text": "Refunds are issued within 5 business days.", "score": 0.9, "rank": 0,
                  "metadata": {"domain": "returns", "status": "current",
                               "effective_year": 2025, "version": "v2",
                               "access_group": "all-staff", "tenant": "example-co"}}],
        "index": {"snapshot_id": "kb-live", "built_year": 2025, "document_count": 1},
    }


def main() -> dict[str, str]:
    seen: dict[str, str] = {}
    args = {"query": "How fast are refunds?", "session": {"session_id": "sess-demo"}}
    for scenario in ("schema_drift", "missing_tool_output"):
        raw = with_faults(my_search, scenario)(**args, fault_context=FaultContext(seed=0))
        for mode in ("strict", "repair"):
            result = check_contract(raw, mode)
            seen[f"{scenario}/{mode}"] = result.status
            print(f"{scenario:20s} {mode:6s} -> {result.status:8s} repairs={len(result.repairs)}")

    corpus = build_corpus()
    env = PolicyEnvironment.from_corpus(corpus)
    task = corpus.tasks[0]
    stale = with_faults(env.search_policies, "stale_index")
    raw = stale(query=task.question, session=task.session,
                fault_context=FaultContext(task=task))
    assert raw is not None
    seen["stale_index/snapshot"] = raw["index"]["snapshot_id"]
    print(f"stale_index on PolicyEnvironment -> snapshot {raw['index']['snapshot_id']}, "
          f"built {raw['index']['built_year']}")
    return seen


if __name__ == "__main__":
    main()
