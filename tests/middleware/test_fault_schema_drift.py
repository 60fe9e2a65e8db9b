"""schema_drift: a v3 payload with the same evidence; strict rejects it, repair restores it."""

from __future__ import annotations

from middleware import check_contract


def test_the_drifted_payload_is_schema_v3_with_renamed_and_retyped_fields(
        outputs: dict) -> None:
    raw = outputs["schema_drift"][0]
    assert raw["schema_version"] == "3"
    assert "hits" not in raw and isinstance(raw["results"], list)
    hit = raw["results"][0]
    assert "body" in hit and "text" not in hit
    assert isinstance(hit["attributes"]["lifecycle"]["effective_year"], str)
    assert raw["request"]["session"] == outputs["clean"][0]["session_id"]


def test_the_evidence_inside_is_intact(outputs: dict) -> None:
    for drifted, clean in zip(outputs["schema_drift"], outputs["clean"], strict=True):
        assert [h["body"] for h in drifted["results"]] == [h["text"] for h in clean["hits"]]
        assert [h["id"] for h in drifted["results"]] == [h["doc_id"] for h in clean["hits"]]


def test_schema_drift_is_rejected_in_strict_mode(outputs: dict) -> None:
    for raw in outputs["schema_drift"]:
        result = check_contract(raw, mode="strict")
        assert (result.status, result.valid, result.payload) == ("invalid", False, None)
        assert result.errors and result.repairs == ()


def test_repair_restores_every_drifted_payload_with_identical_evidence(outputs: dict) -> None:
    for drifted, clean in zip(outputs["schema_drift"], outputs["clean"], strict=True):
        repaired = check_contract(drifted, mode="repair")
        assert repaired.valid and repaired.status == "ok"
        assert repaired.payload == check_contract(clean, mode="strict").payload


def test_repair_records_each_normalization(outputs: dict) -> None:
    repairs = check_contract(outputs["schema_drift"][0], mode="repair").repairs
    assert repairs[0] == "mapped schema_version 3->2"
    assert "renamed results->hits" in repairs
    assert "renamed results[].body->hits[].text" in repairs
    assert "coerced hits[].metadata.effective_year str->int" in repairs
    assert "coerced index.built_year str->int" in repairs
