"""permission_denied: the required documents' access group is revoked from the caller; they
are withheld, the payload says so, and their text never leaves the endpoint."""

from __future__ import annotations

import json

import pytest

from middleware import FaultContext, ToolChain, build_tool_chain, check_contract, compose
from middleware.scenarios import FaultSpec
from simulator.corpus import Corpus, Labels, Task
from simulator.endpoints import EndpointConditions, PolicyEnvironment
from simulator.errors import UsageError
from tests.middleware.conftest import search_call


def test_required_documents_never_come_back(outputs: dict,
                                            records: list[tuple[Task, Labels]]) -> None:
    for raw, (_, labels) in zip(outputs["permission_denied"], records, strict=True):
        ids = {h["doc_id"] for h in raw["hits"]}
        assert not ids & {*labels.required_doc_ids, *labels.superseded_doc_ids}
        assert all(h["metadata"]["access_group"] != labels.access_group for h in raw["hits"])


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
    record = chains["permission_denied"].invoke(call, FaultContext(task=task, labels=labels))
    assert record["denied"] and record.get("status") is None


def test_without_labels_the_fault_needs_explicit_groups(chains: dict[str, ToolChain],
                                                        records: list[tuple[Task, Labels]]
                                                        ) -> None:
    task, _ = records[0]
    with pytest.raises(UsageError, match="labels"):
        chains["permission_denied"].invoke(search_call(task), FaultContext(task=task))


def test_explicit_groups_are_revoked_instead(env: PolicyEnvironment, corpus: Corpus) -> None:
    task = corpus.tasks[0]
    scenario = compose("deny_all_staff",
                       FaultSpec(name="permission_denied", params={"groups": ("all-staff",)}),
                       layer="authorization", answerable=False)
    raw = build_tool_chain(scenario, env).invoke(search_call(task), FaultContext(task=task))
    assert all(h["metadata"]["access_group"] != "all-staff" for h in raw["hits"])
    assert "all-staff" not in json.dumps([h["metadata"] for h in raw["hits"]])


def test_the_fault_revokes_the_tasks_group_and_pins_its_required_documents(
        chains: dict[str, ToolChain], records: list[tuple[Task, Labels]]) -> None:
    task, labels = records[0]
    call, _ = chains["permission_denied"].prepare(search_call(task),
                                                  FaultContext(task=task, labels=labels))
    assert call.conditions == EndpointConditions(revoked_groups=(labels.access_group,),
                                                 pinned_doc_ids=labels.required_doc_ids)
