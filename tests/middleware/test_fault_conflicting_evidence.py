"""conflicting_evidence: both versions come back together with a contradicting note."""

from __future__ import annotations

from collections import Counter

from middleware import check_contract
from middleware.faults.conflicting_evidence import NOTE_KINDS, _note
from simulator.corpus import Labels, Task


def test_current_and_superseded_versions_are_both_among_the_hits(
        outputs: dict, records: list[tuple[Task, Labels]]) -> None:
    for raw, (_, labels) in zip(outputs["conflicting_evidence"], records, strict=True):
        ids = {h["doc_id"] for h in raw["hits"]}
        assert {*labels.required_doc_ids, *labels.superseded_doc_ids} <= ids
        assert len(raw["hits"]) == 3


def test_metadata_stays_intact(outputs: dict, records: list[tuple[Task, Labels]]) -> None:
    for raw, (_, labels) in zip(outputs["conflicting_evidence"], records, strict=True):
        status = {h["doc_id"]: h["metadata"]["status"] for h in raw["hits"]}
        assert status[labels.required_doc_ids[0]] == "current"
        assert status[labels.superseded_doc_ids[0]] == "superseded"


def test_a_note_contradicts_one_of_the_versions(outputs: dict,
                                                records: list[tuple[Task, Labels]]) -> None:
    kinds: Counter[str] = Counter()
    for raw, (_, labels) in zip(outputs["conflicting_evidence"], records, strict=True):
        (note,) = raw["notes"]
        old = next(h for h in raw["hits"] if h["doc_id"] == labels.superseded_doc_ids[0])
        assert old["metadata"]["version"] in note
        kinds["current" if "remains the governing text" in note else "superseded"] += 1
        assert check_contract(raw, "strict").payload.notes == (note,)
    assert set(kinds) == {"current", "superseded"}


def test_notes_are_built_from_the_payload_alone_never_from_labels(
        outputs: dict, records: list[tuple[Task, Labels]]) -> None:
    for raw, (_, labels) in zip(outputs["conflicting_evidence"], records, strict=True):
        old = next(h for h in raw["hits"] if h["doc_id"] == labels.superseded_doc_ids[0])
        assert raw["notes"][0] in {_note(kind, old) for kind in NOTE_KINDS}
