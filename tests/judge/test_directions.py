"""The deterministic judge's direction under each scenario, against clean (same mode).

Directions, not numbers: ``<`` lower than clean, ``=`` equal, ``>=`` not lower, ``n/a`` the
metric applies to no record of the cell. Pinned on a 24-task deterministic run.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.judge.run import JudgedRecord, judge_run
from simulator.judge.weights import PAPER
from simulator.stats.judged import CellSummary, summarize

GF, RC, CS, AH, ATF, SF = ("hallucination", "retrieval_correctness", "context_sufficiency",
                           "answer_helpfulness", "answer_type_fit", "s_final")
ABSTAINS = {GF: "n/a", RC: "<", CS: "<", AH: "<", ATF: ">=", SF: "<"}
"""No usable evidence: every record is a reasoned non-answer (nothing to ground)."""
MISLED = {GF: "=", RC: "<", CS: "<", AH: "<", ATF: "<", SF: "<"}
"""Evidence that looks usable but is not: grounded answers on the wrong documents."""
INERT = {GF: "=", RC: "=", CS: "=", AH: "=", ATF: "=", SF: "="}

DIRECTIONS: dict[tuple[str, str], dict[str, str]] = {
    ("stale_index", "strict"): MISLED, ("stale_index", "repair"): MISLED,
    ("wrong_session", "strict"): MISLED, ("wrong_session", "repair"): MISLED,
    ("corrupted_metadata", "strict"): MISLED, ("corrupted_metadata", "repair"): MISLED,
    ("partial_timeout", "strict"): MISLED, ("partial_timeout", "repair"): MISLED,
    ("schema_drift", "strict"): ABSTAINS, ("schema_drift", "repair"): INERT,
    ("missing_tool_output", "strict"): ABSTAINS, ("missing_tool_output", "repair"): ABSTAINS,
    ("permission_denied", "strict"): ABSTAINS, ("permission_denied", "repair"): ABSTAINS,
    ("conflicting_evidence", "strict"): INERT, ("conflicting_evidence", "repair"): INERT,
}


@pytest.fixture(scope="module")
def judged(small_run: Path) -> list[JudgedRecord]:
    return judge_run(small_run)[0]


@pytest.fixture(scope="module")
def cells(judged: list[JudgedRecord]) -> dict[tuple[str, str], CellSummary]:
    return {(c.scenario, c.contract_mode): c
            for c in summarize(judged, PAPER, replicates=50)}


def _mean(cell: CellSummary, metric: str) -> float | None:
    m = cell.s_final if metric == SF else cell.metrics[metric]  # type: ignore[index]
    return None if m is None else m.mean


@pytest.mark.parametrize(("scenario", "mode"), sorted(DIRECTIONS))
def test_each_metric_moves_in_its_direction_against_clean(
        cells: dict[tuple[str, str], CellSummary], scenario: str, mode: str) -> None:
    clean, cell = cells[("clean", mode)], cells[(scenario, mode)]
    for metric, direction in DIRECTIONS[(scenario, mode)].items():
        ours, theirs = _mean(cell, metric), _mean(clean, metric)
        if direction == "n/a":
            assert ours is None, (metric, ours)
            continue
        assert ours is not None and theirs is not None, metric
        ok = {"<": ours < theirs - 1e-9, "=": abs(ours - theirs) < 1e-9,
              ">=": ours >= theirs - 1e-9}[direction]
        assert ok, f"{scenario}/{mode} {metric}: {ours:.3f} vs clean {theirs:.3f}"


def test_stale_index_and_wrong_session_fail_retrieval_while_groundedness_passes(
        cells: dict[tuple[str, str], CellSummary]) -> None:
    for scenario in ("stale_index", "wrong_session"):
        cell = cells[(scenario, "strict")]
        assert cell.metrics[RC] is not None and cell.metrics[RC].bands["severe"] == cell.judged
        assert cell.metrics[GF] is not None and cell.metrics[GF].mean == 1.0
        assert cell.gf_rate is not None and cell.gf_rate > 0.5


def test_schema_drift_strict_is_marked_by_its_contract_failure(
        cells: dict[tuple[str, str], CellSummary]) -> None:
    issue = cells[("schema_drift", "strict")].main_issue
    assert issue is not None and "contract failure" in issue
    assert cells[("schema_drift", "repair")].main_issue == cells[("clean", "repair")].main_issue


def test_no_metric_without_identifiers_or_cases_is_scored(
        cells: dict[tuple[str, str], CellSummary]) -> None:
    for cell in cells.values():
        for metric in ("identifier_integrity", "case_issue_identification",
                       "case_resolution_alignment"):
            assert cell.metrics[metric] is None  # type: ignore[index]
