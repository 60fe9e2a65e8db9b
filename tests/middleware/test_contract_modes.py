"""Contract modes on hand-made payloads: strict takes v2 as sent; repair normalizes within
its tables, records every repair, and never invents, drops, un-denies or re-sessions."""

from __future__ import annotations

import copy

import pytest

from middleware import check_contract
from middleware.faults.schema_drift import drift_payload
from simulator.errors import UsageError


@pytest.fixture
def clean(outputs: dict) -> dict:
    return copy.deepcopy(outputs["clean"][0])


def test_a_v2_payload_passes_both_modes_unchanged(clean: dict) -> None:
    strict, repair = check_contract(clean, "strict"), check_contract(clean, "repair")
    assert strict.valid and strict.status == "ok" and strict == repair
    assert repair.repairs == ()


def test_a_year_sent_as_a_string_is_invalid_in_strict_and_coerced_in_repair(
        clean: dict) -> None:
    clean["hits"][0]["metadata"]["effective_year"] = str(
        clean["hits"][0]["metadata"]["effective_year"])
    assert check_contract(clean, "strict").status == "invalid"
    repaired = check_contract(clean, "repair")
    assert repaired.valid
    assert repaired.repairs == ("coerced hits[].metadata.effective_year str->int",)


def test_repair_does_not_modify_the_raw_payload(clean: dict) -> None:
    clean["index"]["built_year"] = "2026"
    before = copy.deepcopy(clean)
    check_contract(clean, "repair")
    assert clean == before


def test_repair_never_invents_a_missing_field(clean: dict) -> None:
    del clean["hits"][0]["text"]
    result = check_contract(drift_payload(clean), "repair")
    assert result.status == "invalid" and any("text" in e for e in result.errors)


def test_repair_never_drops_a_field_it_does_not_know(clean: dict) -> None:
    drifted = drift_payload(clean)
    drifted["results"][0]["confidence"] = "high"
    result = check_contract(drifted, "repair")
    assert result.status == "invalid"
    assert "unmapped v3 field results.0.confidence" in result.errors


def test_an_unknown_schema_version_is_not_guessed(clean: dict) -> None:
    clean["schema_version"] = "4"
    result = check_contract(clean, "repair")
    assert result.status == "invalid" and "schema_version '4'" in result.errors[0]


def test_a_non_numeric_year_is_not_coerced(clean: dict) -> None:
    clean["hits"][0]["metadata"]["effective_year"] = "last year"
    assert check_contract(clean, "repair").status == "invalid"


def test_repair_keeps_a_denial_and_the_session_of_a_drifted_payload(clean: dict) -> None:
    clean["hits"] = []
    clean["access"] = {"denied": True, "withheld_count": 3, "reason": "withheld"}
    clean["session_id"] = "sess_someone_else"
    repaired = check_contract(drift_payload(clean), "repair").payload
    assert repaired.access.denied and repaired.access.withheld_count == 3
    assert repaired.session_id == "sess_someone_else" and repaired.hits == ()


@pytest.mark.parametrize("raw", [None, {}, {"schema_version": "2", "query": "q"},
                                 {"schema_version": "3", "request": {"query": "q"}}])
def test_no_usable_body_is_missing_in_both_modes(raw: dict | None) -> None:
    for mode in ("strict", "repair"):
        result = check_contract(raw, mode)
        assert (result.status, result.valid, result.payload) == ("missing", False, None)


def test_a_body_that_is_not_an_object_is_invalid() -> None:
    assert check_contract(["hits"], "repair").status == "invalid"
    assert check_contract("hits", "strict").status == "invalid"


def test_an_unknown_mode_is_a_usage_error_with_a_suggestion(clean: dict) -> None:
    with pytest.raises(UsageError, match="Did you mean: repair"):
        check_contract(clean, "repiar")


def test_repair_refuses_an_unknown_top_level_v3_field_rather_than_drop_it(
        clean: dict) -> None:
    drifted = drift_payload(clean)
    assert check_contract(drifted, "repair").valid
    drifted["shard_note"] = "an extra field repair has no table for"
    repaired = check_contract(drifted, "repair")
    assert not repaired.valid and repaired.status == "invalid"
    assert any("unmapped v3 field shard_note" in e for e in repaired.errors)
