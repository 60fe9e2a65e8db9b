"""partial_timeout: shards time out, a subset of hits returns flagged partial, and a bounded
retry recovers some records but not all."""

from __future__ import annotations

import pytest

from middleware import FaultContext, ToolChain, build_tool_chain, check_contract, compose
from middleware.faults.partial_timeout import still_down
from middleware.scenarios import FaultSpec
from simulator.corpus import Corpus, Labels, Task
from simulator.endpoints import EndpointConditions, PolicyEnvironment, shard_of
from simulator.errors import UsageError
from tests.middleware.conftest import run_record, search_call


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


def test_the_fault_names_the_shards_its_draws_took_down(
        chains: dict[str, ToolChain], env: PolicyEnvironment,
        records: list[tuple[Task, Labels]]) -> None:
    task, labels = records[11]
    for attempt in range(3):
        ctx = FaultContext(task=task, attempt=attempt, seed=4)
        call, _ = chains["partial_timeout"].prepare(search_call(task), ctx)
        key = f"partial_timeout|{ctx.key()}"
        assert call.conditions == EndpointConditions(down_shards=tuple(
            s for s in env.shard_names() if still_down(key, s, attempt, 0.65, 0.5)))
        assert run_record(chains["partial_timeout"], task, labels, attempt=attempt, seed=4
                          )["missing_shards"] == list(call.conditions.down_shards)


def test_a_shard_is_down_until_a_recovery_draw_brings_it_back() -> None:
    assert not still_down("k", "shard-0", 0, 0.0, 0.0)
    assert still_down("k", "shard-0", 5, 1.0, 0.0)
    assert not still_down("k", "shard-0", 1, 1.0, 1.0)
    for shard in ("shard-0", "shard-1", "shard-2", "shard-3"):
        states = [still_down("key", shard, a, 0.65, 0.5) for a in range(6)]
        assert states == sorted(states, reverse=True)


def test_the_draws_cover_the_environments_shards_or_the_faults_own_split(
        tiny_corpus: Corpus) -> None:
    env = PolicyEnvironment.from_corpus(tiny_corpus, shards=3)
    task, labels = tiny_corpus.tasks[0], tiny_corpus.labels[0]
    everything_down = compose("all_down", FaultSpec(name="partial_timeout", params={
        "timeout_probability": 1.0, "recovery_probability": 0.0}),
        layer="completeness", answerable=False)
    raw = run_record(build_tool_chain(everything_down, env), task, labels)
    assert raw["missing_shards"] == ["shard-0", "shard-1", "shard-2"] and raw["hits"] == []
    seven = compose("seven", FaultSpec(name="partial_timeout", params={
        "timeout_probability": 1.0, "recovery_probability": 0.0, "shards": 7}),
        layer="completeness", answerable=False)
    call, _ = build_tool_chain(seven, env).prepare(search_call(task),
                                                   FaultContext(task=task))
    assert call.conditions.shards == 7 and call.conditions.down_shards == env.shard_names(7)


def test_without_the_environment_the_fault_cannot_draw(records: list[tuple[Task, Labels]]
                                                       ) -> None:
    task, labels = records[0]
    with pytest.raises(UsageError, match="'partial_timeout' makes its choice"):
        build_tool_chain("partial_timeout").invoke(
            search_call(task), FaultContext(task=task), endpoint=lambda c: {})
