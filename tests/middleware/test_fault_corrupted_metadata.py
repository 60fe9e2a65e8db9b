"""corrupted_metadata: the index and the payload carry corrupted status, year and domain."""

from __future__ import annotations

from middleware import ToolChain, check_contract
from simulator.corpus import Corpus, Labels, Task
from simulator.retrieval.corruption import corrupt_metadata
from tests.middleware.conftest import run_record


def test_the_payload_carries_exactly_the_corrupted_metadata(outputs: dict,
                                                            corpus: Corpus) -> None:
    corrupted = {d.doc_id: d for d in corrupt_metadata(corpus.documents, seed=0)}
    for raw in outputs["corrupted_metadata"]:
        for hit in raw["hits"]:
            doc = corrupted[hit["doc_id"]]
            meta = hit["metadata"]
            assert (meta["status"], meta["effective_year"], meta["domain"]) == (
                doc.status, doc.effective_year, doc.domain)
            assert hit["text"] == corpus.document(hit["doc_id"]).text


def test_some_metadata_really_is_wrong(outputs: dict, corpus: Corpus) -> None:
    wrong = sum(hit["metadata"]["domain"] != corpus.document(hit["doc_id"]).domain
                for raw in outputs["corrupted_metadata"] for hit in raw["hits"])
    assert wrong > 0


def test_the_corruption_follows_the_seed(chains: dict[str, ToolChain],
                                         records: list[tuple[Task, Labels]]) -> None:
    task, labels = records[0]
    chain = chains["corrupted_metadata"]
    metas = [[h["metadata"] for h in run_record(chain, task, labels, seed=s)["hits"]]
             for s in (0, 0, 1)]
    assert metas[0] == metas[1] != metas[2]


def test_corrupted_payloads_are_schema_valid(outputs: dict) -> None:
    assert all(check_contract(raw, "strict").valid for raw in outputs["corrupted_metadata"])
