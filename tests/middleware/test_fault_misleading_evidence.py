"""misleading_evidence: the search endpoint serves the top-ranked current hit with its answer
edited, aimed without labels; ids, metadata and the registry (fetch_document) stay as
published."""

from __future__ import annotations

import pytest

from middleware import FaultContext, ToolCall, build_tool_chain, get_scenario
from simulator.answers.foil import DocumentFoil, document_foil, edited_text, foil_key
from simulator.answers.normalize import matches_any
from simulator.corpus import Corpus, Task
from simulator.endpoints import PolicyEnvironment
from simulator.endpoints.document_payload import text_digest
from simulator.errors import UsageError
from simulator.vocabulary import SCENARIO_GROUPS, SCENARIO_NAMES
from tests.middleware.conftest import run_record


def _older_texts(env: PolicyEnvironment, doc_id: str) -> list[str]:
    lineage = env.registry.lineage(doc_id)
    return [env.registry.get(d).text for d in lineage[:lineage.index(doc_id)]]  # type: ignore[union-attr]


def _target(env: PolicyEnvironment, task: Task, hits: list[dict], position: str
            ) -> tuple[dict | None, DocumentFoil | None]:
    """The rule of the module docstring: the best-ranked current hit with an editable foil."""
    for hit in hits:
        if hit["metadata"]["status"] != "current":
            continue
        foil = document_foil(foil_key(0, task.task_id), task.question, task.answer_format,
                             hit["text"], _older_texts(env, hit["doc_id"]))
        if foil is not None and edited_text(hit["text"], task.answer_format, (foil.stated,),
                                            foil.value, position):  # type: ignore[arg-type]
            return hit, foil
    return None, None


@pytest.mark.parametrize("position", ["beginning", "middle", "end"])
def test_the_top_current_hit_carries_its_foil_and_nothing_else_changes(
        env: PolicyEnvironment, corpus: Corpus, position: str) -> None:
    """The target and the foil follow from the hits and the registry alone; the labels are
    read here only to check that the target is, nearly always, the task's current document
    and the value replaced its accepted answer."""
    clean = build_tool_chain("clean", env)
    tampered = build_tool_chain(f"misleading_{position}", env)
    edited = on_required = 0
    for task, labels in list(zip(corpus.tasks, corpus.labels, strict=True))[::5]:
        before, after = run_record(clean, task, labels), run_record(tampered, task, labels)
        assert before is not None and after is not None
        target, foil = _target(env, task, before["hits"], position)
        target_id = target["doc_id"] if target is not None else None
        for old, new in zip(before["hits"], after["hits"], strict=True):
            assert {k: v for k, v in old.items() if k != "text"} == \
                {k: v for k, v in new.items() if k != "text"}
            if foil is not None and old["doc_id"] == target_id:
                assert foil.value in new["text"] and new["text"] != old["text"]
                edited += 1
                if old["doc_id"] in labels.required_doc_ids:
                    on_required += 1
                    assert matches_any(foil.stated, labels.accepted_answers,
                                       labels.answer_format)
            else:
                assert new["text"] == old["text"]
    assert edited > 30 and on_required >= 0.85 * edited


def test_the_registry_keeps_the_true_text(env: PolicyEnvironment, corpus: Corpus) -> None:
    chain = build_tool_chain("misleading_end", env)
    task, labels = corpus.tasks[0], corpus.labels[0]
    doc_id = labels.required_doc_ids[0]
    record = chain.invoke(ToolCall(name="fetch_document",
                                   args={"doc_id": doc_id, "session": task.session.model_dump()}),
                          FaultContext(task=task))
    assert record is not None
    assert record["text_sha256"] == text_digest(corpus.document(doc_id).text)


def test_an_unknown_position_is_one_line_naming_it() -> None:
    from middleware import FaultSpec, compose

    with pytest.raises(UsageError, match="position") as err:
        compose("bad", FaultSpec(name="misleading_evidence", params={"position": "top"}),
                layer="integrity", answerable=False).build_faults()
    assert "\n" not in str(err.value)


def test_the_misleading_scenarios_are_registered_but_not_in_the_default_matrix() -> None:
    names = ("misleading_beginning", "misleading_middle", "misleading_end")
    assert not set(names) & set(SCENARIO_NAMES)
    assert SCENARIO_GROUPS["misleading"] == ("clean", *names)
    for name in names:
        scenario = get_scenario(name)
        assert (scenario.layer, scenario.answerable, scenario.mitigation) == \
            ("integrity", False, "evidence_integrity")
