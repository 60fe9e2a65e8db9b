"""Acceptance over every enterprise_v2 task: strict and repair behave as specified on all
nine scenarios (first attempt, seed 0)."""

from __future__ import annotations

from middleware import SCENARIO_NAMES, check_contract

NEGATIVE_CONTROLS = ("stale_index", "missing_tool_output", "permission_denied", "wrong_session")


def test_every_scenario_produced_a_record_for_all_240_tasks(outputs: dict) -> None:
    assert set(outputs) == set(SCENARIO_NAMES)
    assert all(len(raws) == 240 for raws in outputs.values())


def test_outside_schema_drift_strict_accepts_every_payload_that_has_a_body(
        outputs: dict) -> None:
    for name in SCENARIO_NAMES:
        if name in ("schema_drift", "missing_tool_output"):
            continue
        assert all(check_contract(raw, "strict").valid for raw in outputs[name]), name


def test_repair_turns_every_drifted_payload_into_the_clean_one(outputs: dict) -> None:
    for drifted, clean in zip(outputs["schema_drift"], outputs["clean"], strict=True):
        assert not check_contract(drifted, "strict").valid
        assert check_contract(drifted, "repair").payload == check_contract(clean).payload


def test_repair_leaves_every_negative_control_exactly_as_strict_does(outputs: dict) -> None:
    for name in NEGATIVE_CONTROLS:
        for raw in outputs[name]:
            assert check_contract(raw, "repair") == check_contract(raw, "strict"), name


def test_repair_changes_nothing_in_any_scenario_but_schema_drift(outputs: dict) -> None:
    for name in SCENARIO_NAMES:
        if name != "schema_drift":
            assert all(check_contract(raw, "repair").repairs == () for raw in outputs[name])
