"""conflicting_evidence: an older version of what was retrieved comes back beside it, marked
current, with a contradicting note; drawn from the results, never from the labels."""

from __future__ import annotations

import random
from collections import Counter

from middleware import ToolChain, check_contract
from middleware.faults.conflicting_evidence import NOTE_KINDS, _note
from simulator.corpus import Labels, Task
from simulator.endpoints import PolicyEnvironment
from tests.middleware.conftest import run_record


def test_an_older_version_of_the_top_hit_comes_back_beside_it_marked_current(
        outputs: dict, env: PolicyEnvironment) -> None:
    for raw in outputs["conflicting_evidence"]:
        top, beside = raw["hits"][0], raw["hits"][1]
        lineage = env.registry.lineage(top["doc_id"])
        assert beside["doc_id"] in lineage[:lineage.index(top["doc_id"])]
        assert beside["metadata"]["status"] == top["metadata"]["status"] == "current"
        assert beside["title"] == top["title"] and beside["text"] != top["text"]


def test_effective_year_and_version_stay_as_published(outputs: dict,
                                                     env: PolicyEnvironment) -> None:
    for raw in outputs["conflicting_evidence"]:
        for hit in raw["hits"]:
            doc = env.registry.get(hit["doc_id"])
            assert doc is not None
            assert (hit["metadata"]["effective_year"], hit["metadata"]["version"]) == \
                (doc.effective_year, doc.version)


def test_no_easier_than_clean_the_same_documents_plus_the_older_version(
        outputs: dict, records: list[tuple[Task, Labels]]) -> None:
    for clean, raw, (_, labels) in zip(outputs["clean"], outputs["conflicting_evidence"],
                                       records, strict=True):
        served = [h["doc_id"] for h in raw["hits"]]
        added = set(served) - {h["doc_id"] for h in clean["hits"]}
        assert set(served) - added == {h["doc_id"] for h in clean["hits"]}
        assert not added & set(labels.required_doc_ids)  # never supplies a missed current doc


def test_a_clean_retrieval_failure_stays_a_failure(
        outputs: dict, records: list[tuple[Task, Labels]]) -> None:
    missed = 0
    for clean, raw, (_, labels) in zip(outputs["clean"], outputs["conflicting_evidence"],
                                       records, strict=True):
        required = set(labels.required_doc_ids)
        if not required <= {h["doc_id"] for h in clean["hits"]}:
            missed += 1
            assert not required <= {h["doc_id"] for h in raw["hits"]}
    assert missed > 0  # the reference corpus has some, so the rule was exercised


def test_scrambled_labels_change_nothing(chains: dict[str, ToolChain],
                                         records: list[tuple[Task, Labels]]) -> None:
    """The fault aims with what was retrieved: other tasks' document ids in the labels
    leave every payload as it was."""
    rng = random.Random(7)
    ids = [(lab.required_doc_ids, lab.superseded_doc_ids) for _, lab in records]
    rng.shuffle(ids)
    chain = chains["conflicting_evidence"]
    for (task, labels), (required, superseded) in zip(records, ids, strict=True):
        scrambled = labels.model_copy(update={"required_doc_ids": required,
                                              "superseded_doc_ids": superseded})
        assert run_record(chain, task, scrambled) == run_record(chain, task, labels)


def test_a_note_contradicts_one_of_the_versions(outputs: dict) -> None:
    kinds: Counter[str] = Counter()
    for raw in outputs["conflicting_evidence"]:
        (note,) = raw["notes"]
        assert raw["hits"][1]["metadata"]["version"] in note
        assert raw["notes"][0] in {_note(kind, raw["hits"][1]) for kind in NOTE_KINDS}
        kinds["current" if "remains the governing text" in note else "superseded"] += 1
        assert check_contract(raw, "strict").payload.notes == (note,)
    assert set(kinds) == {"current", "superseded"}
