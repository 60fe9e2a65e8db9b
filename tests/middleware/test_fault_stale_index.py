"""stale_index: the endpoint serves a snapshot built before the current versions existed."""

from __future__ import annotations

from middleware import ToolChain, check_contract
from simulator.corpus import Corpus, Labels, Task
from simulator.endpoints import PolicyEnvironment


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
    from tests.middleware.conftest import run_record

    task, labels = records[7]
    chain = chains["stale_index"]
    assert run_record(chain, task, labels, attempt=3) == run_record(chain, task, labels)
