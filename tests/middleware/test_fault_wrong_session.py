"""wrong_session: a session-keyed cache hands back another session's results."""

from __future__ import annotations

from middleware import ToolChain, check_contract
from simulator.corpus import Corpus, Labels, Task
from tests.middleware.conftest import run_record


def test_the_payload_never_carries_the_callers_session(
        outputs: dict, records: list[tuple[Task, Labels]]) -> None:
    for raw, (task, _) in zip(outputs["wrong_session"], records, strict=True):
        assert raw["session_id"] != task.session.session_id


def test_it_is_another_tasks_cached_result_from_another_policy_unit(
        outputs: dict, corpus: Corpus, records: list[tuple[Task, Labels]]) -> None:
    by_session = {t.session.session_id: (t, lab) for t, lab in records}
    for raw, (_, labels) in zip(outputs["wrong_session"], records, strict=True):
        other_task, other_labels = by_session[raw["session_id"]]
        assert other_labels.unit != labels.unit
        assert raw["query"] == other_task.question
        assert not {h["doc_id"] for h in raw["hits"]} & set(labels.required_doc_ids)


def test_the_cache_is_sticky_across_retries(chains: dict[str, ToolChain],
                                            records: list[tuple[Task, Labels]]) -> None:
    task, labels = records[20]
    chain = chains["wrong_session"]
    assert run_record(chain, task, labels, attempt=2) == run_record(chain, task, labels)


def test_repair_does_not_fix_session_context(outputs: dict) -> None:
    for raw in outputs["wrong_session"]:
        assert check_contract(raw, "repair") == check_contract(raw, "strict")
        assert check_contract(raw, "repair").payload.session_id == raw["session_id"]
