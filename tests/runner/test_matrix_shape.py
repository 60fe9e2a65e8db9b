"""The deterministic matrix has the paper's shape (Tables 2 and 4), for mechanical reasons."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from simulator.runner.record import RunRecord
from simulator.runner.store import RunStore


@pytest.fixture(scope="module")
def records(deterministic_run: Path) -> list[RunRecord]:
    with RunStore(deterministic_run) as store:
        return list(store.records())


def _rate(records: list[RunRecord], scenario: str, mode: str, field: str = "S") -> float:
    cell = [r for r in records if r.scenario == scenario and r.contract_mode == mode]
    assert len(cell) == 240
    return sum(bool(getattr(r, field)) for r in cell) / len(cell)


def test_the_full_matrix_has_4320_unique_records(records: list[RunRecord]) -> None:
    assert len(records) == 4320
    assert len({r.key.as_str() for r in records}) == 4320


def test_clean_and_conflicting_evidence_are_high(records: list[RunRecord]) -> None:
    for mode in ("strict", "repair"):
        assert _rate(records, "clean", mode) >= 0.8
        assert _rate(records, "conflicting_evidence", mode) >= 0.8


def test_schema_drift_fails_strict_and_repair_comes_close_to_clean(
        records: list[RunRecord]) -> None:
    assert _rate(records, "schema_drift", "strict") == 0
    assert abs(_rate(records, "schema_drift", "repair") - _rate(records, "clean", "repair")) <= 0.02


@pytest.mark.parametrize("scenario,layer", [
    ("stale_index", "freshness"), ("missing_tool_output", "completeness"),
    ("permission_denied", "authorization"), ("wrong_session", "session")])
def test_negative_controls_fail_in_both_modes_for_their_own_reason(
        records: list[RunRecord], scenario: str, layer: str) -> None:
    for mode in ("strict", "repair"):
        assert _rate(records, scenario, mode) == 0
        layers = {r.failure_layer for r in records
                  if r.scenario == scenario and r.contract_mode == mode}
        assert layers == {layer}, (scenario, mode, layers)


def test_partial_timeout_is_clearly_degraded(records: list[RunRecord]) -> None:
    for mode in ("strict", "repair"):
        assert 0.1 <= _rate(records, "partial_timeout", mode) <= 0.6


def test_corrupted_metadata_is_degraded(records: list[RunRecord]) -> None:
    for mode in ("strict", "repair"):
        assert _rate(records, "corrupted_metadata", mode) < _rate(records, "clean", mode) - 0.1


def test_stale_and_wrong_session_answers_are_grounded_false_positives(
        records: list[RunRecord]) -> None:
    for scenario in ("stale_index", "wrong_session"):
        gf = _rate(records, scenario, "strict", "grounded")
        assert gf >= 0.5, (scenario, gf)


def test_prompts_exist_exactly_where_the_pipeline_reached_the_reader(
        records: list[RunRecord]) -> None:
    no_prompt: dict[tuple[str, str], int] = defaultdict(int)
    for r in records:
        if r.prompt_hash is None:
            no_prompt[(r.scenario, r.contract_mode)] += 1
    assert no_prompt == {("missing_tool_output", "strict"): 240,
                         ("missing_tool_output", "repair"): 240,
                         ("permission_denied", "strict"): 240,
                         ("permission_denied", "repair"): 240,
                         ("schema_drift", "strict"): 240}
