"""missing_tool_output: no usable body, in one of three forms; no mode invents evidence."""

from __future__ import annotations

from collections import Counter

from middleware import check_contract


def _form(raw: dict | None) -> str:
    if raw is None:
        return "none"
    return "empty" if raw == {} else "no_hits"


def test_all_three_forms_are_drawn_across_tasks(outputs: dict) -> None:
    forms = Counter(_form(raw) for raw in outputs["missing_tool_output"])
    assert set(forms) == {"none", "empty", "no_hits"}


def test_a_body_without_hits_keeps_nothing_that_could_serve_as_evidence(outputs: dict) -> None:
    for raw in outputs["missing_tool_output"]:
        if raw:
            assert "hits" not in raw and "results" not in raw


def test_missing_output_is_missing_in_both_modes(outputs: dict) -> None:
    for raw in outputs["missing_tool_output"]:
        for mode in ("strict", "repair"):
            result = check_contract(raw, mode)
            assert (result.status, result.valid, result.payload) == ("missing", False, None)
