"""permission_denied: the access group of what the question retrieves first is revoked from
the caller, with no label; those documents are withheld, the payload says so, and their text
never leaves the endpoint."""

from __future__ import annotations

import json

import pytest

from middleware import FaultContext, ToolChain, build_tool_chain, check_contract, compose
from middleware.scenarios import FaultSpec
from simulator.corpus import Corpus, Labels, Task
from simulator.endpoints import EndpointConditions, PolicyEnvironment
from simulator.errors import UsageError
from tests.middleware.conftest import revoked_groups, search_call


def test_no_document_of_a_revoked_group_comes_back(outputs: dict, env: PolicyEnvironment,
                                                   records: list[tuple[Task, Labels]]) -> None:
    for raw, (task, _) in zip(outputs["permission_denied"], records, strict=True):
        groups = revoked_groups(env, task)
        assert groups and all(h["metadata"]["access_group"] not in groups for h in raw["hits"])


def test_the_required_documents_never_come_back(outputs: dict,
                                               records: list[tuple[Task, Labels]]) -> None:
    """The scorer's view (labels, read here by the test only): aimed without them, the denial
    still withholds the task's current document wherever the retriever ranked it."""
    for raw, (_, labels) in zip(outputs["permission_denied"], records, strict=True):
        assert not {h["doc_id"] for h in raw["hits"]} & set(labels.required_doc_ids)


def test_every_payload_says_access_was_denied_and_counts_what_was_withheld(
        outputs: dict, env: PolicyEnvironment) -> None:
    for raw in outputs["permission_denied"]:
        assert raw["access"]["denied"] and raw["access"]["withheld_count"] >= 1
        assert raw["access"]["withheld_count"] + len(raw["hits"]) == env.top_k


def test_no_contract_mode_un_denies(outputs: dict) -> None:
    for raw in outputs["permission_denied"]:
        strict, repair = check_contract(raw, "strict"), check_contract(raw, "repair")
        assert repair == strict and repair.payload.access.denied


def test_the_registry_denies_the_same_documents(chains: dict[str, ToolChain],
                                                records: list[tuple[Task, Labels]]) -> None:
    task, labels = records[0]
    call = search_call(task).model_copy(update={
        "name": "fetch_document",
        "args": {"doc_id": labels.required_doc_ids[0], "session": task.session.model_dump()}})
    record = chains["permission_denied"].invoke(call, FaultContext(task=task))
    assert record["denied"] and record.get("status") is None


def test_without_an_environment_the_fault_needs_explicit_groups(
        records: list[tuple[Task, Labels]]) -> None:
    task, _ = records[0]
    with pytest.raises(UsageError, match="environment"):
        build_tool_chain("permission_denied").prepare(search_call(task), FaultContext(task=task))


def test_explicit_groups_are_revoked_instead(env: PolicyEnvironment, corpus: Corpus) -> None:
    task = corpus.tasks[0]
    scenario = compose("deny_all_staff",
                       FaultSpec(name="permission_denied", params={"groups": ("all-staff",)}),
                       layer="authorization", answerable=False)
    raw = build_tool_chain(scenario, env).invoke(search_call(task), FaultContext(task=task))
    assert all(h["metadata"]["access_group"] != "all-staff" for h in raw["hits"])
    assert "all-staff" not in json.dumps([h["metadata"] for h in raw["hits"]])


def test_the_fault_revokes_the_current_hits_groups_and_pins_nothing(
        chains: dict[str, ToolChain], env: PolicyEnvironment,
        records: list[tuple[Task, Labels]]) -> None:
    task, _ = records[0]
    call, _ = chains["permission_denied"].prepare(search_call(task), FaultContext(task=task))
    assert call.conditions == EndpointConditions(revoked_groups=revoked_groups(env, task))


def test_a_reworded_search_and_a_fetch_lose_the_same_group(
        chains: dict[str, ToolChain], env: PolicyEnvironment,
        records: list[tuple[Task, Labels]]) -> None:
    """A permission belongs to the caller: the groups follow the record's question, not the
    wording of one call."""
    task, _ = records[0]
    reworded = search_call(task).model_copy(update={
        "args": {"query": "office snacks", "session": task.session.model_dump()}})
    fetch = search_call(task).model_copy(update={
        "name": "fetch_document", "args": {"doc_id": env.registry.documents[0].doc_id,
                                           "session": task.session.model_dump()}})
    for call in (reworded, fetch):
        prepared, _ = chains["permission_denied"].prepare(call, FaultContext(task=task))
        assert prepared.conditions.revoked_groups == revoked_groups(env, task)
