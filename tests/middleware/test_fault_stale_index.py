"""stale_index: the endpoint serves a snapshot built before the current versions existed."""

from __future__ import annotations

import pytest

from middleware import FaultContext, ToolChain, build_tool_chain, check_contract, compose
from middleware.scenarios import FaultSpec
from simulator.corpus import Corpus, Labels, Task
from simulator.endpoints import EndpointConditions, PolicyEnvironment
from simulator.errors import UsageError
from tests.middleware.conftest import run_record, search_call


def test_current_versions_are_absent_from_every_stale_payload(
        outputs: dict, records: list[tuple[Task, Labels]]) -> None:
    for raw, (_, labels) in zip(outputs["stale_index"], records, strict=True):
        ids = {h["doc_id"] for h in raw["hits"]}
        assert not ids & set(labels.required_doc_ids)


def test_superseded_versions_come_back_under_their_ids_looking_current(
        outputs: dict, corpus: Corpus) -> None:
    superseded = {d.doc_id: d for d in corpus.documents if d.status == "superseded"}
    for raw in outputs["stale_index"]:
        for hit in raw["hits"]:
            live = superseded[hit["doc_id"]]
            assert hit["metadata"]["status"] == "current"
            assert hit["metadata"]["effective_year"] == live.effective_year
            assert hit["metadata"]["version"] == live.version
            assert hit["text"] == live.text


def test_the_snapshot_is_older_than_the_live_index(outputs: dict) -> None:
    live, stale = outputs["clean"][0]["index"], outputs["stale_index"][0]["index"]
    assert stale["built_year"] < live["built_year"]
    assert stale["snapshot_id"] != live["snapshot_id"]
    assert stale["document_count"] == live["document_count"] // 2


def test_the_stale_payload_is_schema_valid_so_no_contract_mode_notices(
        outputs: dict) -> None:
    for raw in outputs["stale_index"]:
        assert check_contract(raw, "strict").valid and check_contract(raw, "repair").valid


def test_the_live_registry_reveals_the_newer_version(
        outputs: dict, env: PolicyEnvironment, records: list[tuple[Task, Labels]]) -> None:
    raw, (task, _) = outputs["stale_index"][0], records[0]
    top = raw["hits"][0]["doc_id"]
    record = env.fetch_document(top, task.session)
    assert record["status"] == "superseded" and record["superseded_by"] is not None


def test_retries_do_not_refresh_the_index(chains: dict[str, ToolChain],
                                          records: list[tuple[Task, Labels]]) -> None:
    task, labels = records[7]
    chain = chains["stale_index"]
    assert run_record(chain, task, labels, attempt=3) == run_record(chain, task, labels)


def test_the_fault_asks_for_the_snapshot_versions_behind(
        chains: dict[str, ToolChain], records: list[tuple[Task, Labels]]) -> None:
    task, labels = records[0]
    call, _ = chains["stale_index"].prepare(search_call(task),
                                            FaultContext(task=task))
    assert call.conditions == EndpointConditions(snapshot_lag=1)


def test_a_lag_past_every_policy_names_the_faults_parameter(
        env: PolicyEnvironment, records: list[tuple[Task, Labels]]) -> None:
    task, labels = records[0]
    too_old = compose("too_old", FaultSpec(name="stale_index", params={"versions_behind": 2}),
                      layer="freshness", answerable=False)
    with pytest.raises(UsageError, match=r"stale_index: versions_behind=2 leaves an empty "
                                         r"index snapshot.*at most 2 version\(s\).*at most 1"):
        run_record(build_tool_chain(too_old, env), task, labels)
