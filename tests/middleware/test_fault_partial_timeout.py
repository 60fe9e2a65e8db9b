"""partial_timeout: shards time out, a subset of hits returns flagged partial, and a bounded
retry recovers some records but not all."""

from __future__ import annotations

from middleware import ToolChain, check_contract
from simulator.corpus import Labels, Task
from simulator.endpoints import shard_of
from tests.middleware.conftest import run_record


def _required_shard_down(raw: dict, labels: Labels) -> bool:
    return shard_of(labels.required_doc_ids[0]) in raw["missing_shards"]


def test_a_partial_payload_is_flagged_and_names_the_shards_that_did_not_answer(
        outputs: dict) -> None:
    for raw in outputs["partial_timeout"]:
        assert raw["partial"] == bool(raw["missing_shards"])
        assert all(shard_of(h["doc_id"]) not in raw["missing_shards"] for h in raw["hits"])
        assert check_contract(raw, "strict").valid


def test_the_hits_are_a_subset_of_the_healthy_hits_in_the_same_order(outputs: dict) -> None:
    for partial, clean in zip(outputs["partial_timeout"], outputs["clean"], strict=True):
        kept = [h["doc_id"] for h in partial["hits"]]
        assert kept == [h["doc_id"] for h in clean["hits"] if h["doc_id"] in kept]


def test_the_required_shard_times_out_first_for_60_to_75_percent_of_tasks(
        outputs: dict, records: list[tuple[Task, Labels]]) -> None:
    down = sum(_required_shard_down(raw, labels)
               for raw, (_, labels) in zip(outputs["partial_timeout"], records, strict=True))
    assert 0.60 <= down / len(records) <= 0.75


def test_each_retry_recovers_the_required_shard_about_half_the_time(
        chains: dict[str, ToolChain], records: list[tuple[Task, Labels]]) -> None:
    chain = chains["partial_timeout"]
    down = recovered = 0
    for task, labels in records:
        if _required_shard_down(run_record(chain, task, labels), labels):
            down += 1
            recovered += not _required_shard_down(run_record(chain, task, labels, attempt=1),
                                                  labels)
    assert 0.35 <= recovered / down <= 0.65


def test_a_bounded_retry_recovers_some_records_but_not_all(
        chains: dict[str, ToolChain], records: list[tuple[Task, Labels]]) -> None:
    chain = chains["partial_timeout"]
    still_down = [_required_shard_down(run_record(chain, t, lab, attempt=2), lab)
                  for t, lab in records]
    assert 0 < sum(still_down) < sum(
        _required_shard_down(run_record(chain, t, lab), lab) for t, lab in records)


def test_recovery_is_monotone_a_retry_never_loses_a_shard(
        chains: dict[str, ToolChain], records: list[tuple[Task, Labels]]) -> None:
    chain = chains["partial_timeout"]
    for task, labels in records[:60]:
        missing = [set(run_record(chain, task, labels, attempt=a)["missing_shards"])
                   for a in range(4)]
        assert all(later <= earlier for earlier, later in zip(missing, missing[1:], strict=False))


def test_the_outage_is_fixed_by_task_attempt_and_seed(
        chains: dict[str, ToolChain], records: list[tuple[Task, Labels]]) -> None:
    chain = chains["partial_timeout"]
    task, labels = records[11]
    assert run_record(chain, task, labels, seed=4) == run_record(chain, task, labels, seed=4)
    by_seed = {tuple(run_record(chain, task, labels, seed=s)["missing_shards"])
               for s in range(12)}
    assert len(by_seed) > 1
