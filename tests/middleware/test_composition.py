"""Faults compose: request steps run first-fault-first, response steps in reverse."""

from __future__ import annotations

from middleware import FaultContext, build_tool_chain, check_contract, compose
from middleware.faults.wrong_session import other_session
from simulator.corpus import Corpus, Labels, Task
from simulator.endpoints import EndpointConditions, PolicyEnvironment
from tests.middleware.conftest import run_record, search_call


def _scenario(*faults: str):  # noqa: ANN202
    return compose("+".join(faults), *faults, layer="contract", answerable=True)


def test_a_drifted_partial_payload_is_repaired_into_the_partial_one(
        env: PolicyEnvironment, records: list[tuple[Task, Labels]]) -> None:
    both = build_tool_chain(_scenario("schema_drift", "partial_timeout"), env)
    partial = build_tool_chain("partial_timeout", env)
    seen_partial = 0
    for task, labels in records[:60]:
        raw = run_record(both, task, labels)
        assert raw["schema_version"] == "3"
        repaired = check_contract(raw, "repair").payload
        assert repaired == check_contract(run_record(partial, task, labels)).payload
        seen_partial += repaired.partial
    assert seen_partial > 0


def test_fault_order_decides_which_response_step_sees_which_payload(
        env: PolicyEnvironment, records: list[tuple[Task, Labels]]) -> None:
    task, labels = records[0]
    lost_then_drifted = run_record(
        build_tool_chain(_scenario("schema_drift", "missing_tool_output"), env), task, labels)
    drifted_then_lost = run_record(
        build_tool_chain(_scenario("missing_tool_output", "schema_drift"), env), task, labels)
    for raw in (lost_then_drifted, drifted_then_lost):
        assert check_contract(raw, "repair").status == "missing"


def test_endpoint_conditions_from_two_faults_combine(
        env: PolicyEnvironment, records: list[tuple[Task, Labels]]) -> None:
    chain = build_tool_chain(_scenario("stale_index", "corrupted_metadata"), env)
    task, labels = records[0]
    raw = run_record(chain, task, labels)
    stale = run_record(build_tool_chain("stale_index", env), task, labels)
    assert raw["index"] == stale["index"]
    assert {h["doc_id"] for h in raw["hits"]} <= {d.doc_id for d in env.index(1).documents}


def test_a_fault_only_touches_the_tools_it_declares(env: PolicyEnvironment,
                                                    records: list[tuple[Task, Labels]]
                                                    ) -> None:
    task, labels = records[0]
    call = search_call(task).model_copy(update={
        "name": "fetch_document",
        "args": {"doc_id": labels.required_doc_ids[0], "session": task.session.model_dump()}})
    ctx = FaultContext(task=task)
    drifted = build_tool_chain("schema_drift", env).invoke(call, ctx)
    assert drifted == env.fetch_document(labels.required_doc_ids[0], task.session)


def test_wrong_session_judges_its_choice_on_the_index_the_outer_faults_selected(
        env: PolicyEnvironment, records: list[tuple[Task, Labels]]) -> None:
    chain = build_tool_chain(_scenario("stale_index", "wrong_session"), env)
    for task, _labels in records[:20]:
        call, _ = chain.prepare(search_call(task), FaultContext(task=task))
        assert call.conditions == EndpointConditions(
            snapshot_lag=1, served_session=other_session(
                env, task.session.session_id, 0, EndpointConditions(snapshot_lag=1)))


def test_the_chain_hands_its_environment_to_the_faults_unless_the_context_names_one(
        env: PolicyEnvironment, tiny_corpus: Corpus) -> None:
    chain = build_tool_chain("clean", env)
    assert chain.context(FaultContext()).environment is env
    other = PolicyEnvironment.from_corpus(tiny_corpus)
    assert chain.context(FaultContext(environment=other)).environment is other
    assert build_tool_chain("clean").context(FaultContext()).environment is None
