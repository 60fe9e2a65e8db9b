"""The react agent on the matrix: the paper's shape, scored from what the agent saw."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from simulator.archive import archive_from_store
from simulator.runner.record import RunRecord
from simulator.runner.store import RunStore


@pytest.fixture(scope="module")
def cells(react_run: Path) -> dict[tuple[str, str], list[RunRecord]]:
    out: dict[tuple[str, str], list[RunRecord]] = defaultdict(list)
    with RunStore(react_run, create=False) as store:
        for record in store.records():
            out[(record.scenario, record.contract_mode)].append(record)
    return out


def rate(records: list[RunRecord], metric: str) -> float:
    return sum(bool(getattr(r, metric)) for r in records) / len(records)


def gf(records: list[RunRecord]) -> float:
    return sum(r.grounded and not r.S for r in records) / len(records)


def test_every_record_is_the_react_agents(cells: dict) -> None:
    assert {r.agent for rs in cells.values() for r in rs} == {"react"}


def test_schema_drift_fails_in_strict_mode_and_repair_restores_it(cells: dict) -> None:
    assert rate(cells[("schema_drift", "strict")], "S") == 0.0
    assert rate(cells[("schema_drift", "repair")], "S") >= 0.85
    assert not any(r.V for r in cells[("schema_drift", "strict")])


def test_clean_strict_success_is_high(cells: dict) -> None:
    assert rate(cells[("clean", "strict")], "S") >= 0.85


@pytest.mark.parametrize("scenario", ["stale_index", "wrong_session"])
def test_grounded_wrong_answers_fail_strict_success(cells: dict, scenario: str) -> None:
    for mode in ("strict", "repair"):
        assert rate(cells[(scenario, mode)], "S") == 0.0
        assert gf(cells[(scenario, mode)]) > 0


@pytest.mark.parametrize("scenario", ["missing_tool_output", "permission_denied"])
def test_no_evidence_gives_no_success_and_a_safe_non_answer(cells: dict, scenario: str) -> None:
    for mode in ("strict", "repair"):
        assert rate(cells[(scenario, mode)], "S") == 0.0
        assert rate(cells[(scenario, mode)], "safe_resolution") == 1.0


def test_the_agent_re_searches_once_when_the_output_is_missing(cells: dict) -> None:
    calls = [len(r.trace["tool_calls"]) for r in cells[("missing_tool_output", "strict")]]
    assert set(calls) == {2}


def test_a_correct_answer_cites_the_document_the_search_returned(cells: dict) -> None:
    for record in cells[("clean", "strict")]:
        if record.S:
            assert set(record.citations) <= set(record.retrieved_doc_ids)


def test_the_archive_carries_the_agent_in_header_and_rows(react_run: Path) -> None:
    archive = archive_from_store(react_run)
    assert archive.header.agent == "react"
    assert "agent" in archive.header.fields
    assert {row.agent for row in archive.rows} == {"react"}


def test_a_report_of_two_runs_puts_the_agents_side_by_side(react_run: Path,
                                                           tmp_path: Path) -> None:
    from simulator.report.build import report_from_runs
    from simulator.runner.config import RunConfig
    from simulator.runner.matrix import run_matrix

    pipeline = tmp_path / "pipeline"
    run_matrix(RunConfig(task_rows=tuple(range(0, 240, 5))), pipeline, progress=False)
    report = report_from_runs([pipeline, react_run], replicates=200)
    assert [a.arm for a in report.arms] == ["pipeline/uncontrolled", "react/uncontrolled"]
    assert {c.arm for c in report.arm_comparison} == {"pipeline/uncontrolled",
                                                     "react/uncontrolled"}
    assert report.provenance.agent == "pipeline,react"
    with pytest.raises(Exception, match="more than once"):
        report_from_runs([react_run, react_run], replicates=50)
