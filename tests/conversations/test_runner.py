"""Conversations through the pipeline: threads carry their history, faults act on the turns
scheduled, a session fault's leaked memory hurts the later turns and session isolation
restores them, schema repair is credited for the contract layer only, and resume loses no
turn and duplicates none."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from pathlib import Path

from simulator.conversations.run import run_cases
from simulator.conversations.runner import CaseRunner, case_cells
from simulator.conversations.thread import exchanges, memory_of
from simulator.report.cases import CasesReport, cases_report_from_store
from simulator.runner.record import RunRecord
from simulator.runner.store import RunStore
from tests.conversations.conftest import cases_config


def _records(run: Path) -> list[RunRecord]:
    with RunStore(run, create=False) as store:
        return list(store.records())


def _cell(report: CasesReport, arm: str, scenario: str, mode: str):  # type: ignore[no-untyped-def]
    return next(c for c in report.cases
                if (c.arm, c.scenario, c.contract_mode) == (arm, scenario, mode))


def _after(report: CasesReport, arm: str, scenario: str, mode: str):  # type: ignore[no-untyped-def]
    return next(t for t in report.after_fault
                if (t.arm, t.scenario, t.contract_mode) == (arm, scenario, mode))


def test_every_turn_of_every_case_is_one_record(cases_run: Path) -> None:
    records = _records(cases_run)
    turns = {(r.arm, r.scenario, r.contract_mode, r.case.case_id, r.case.turn)
             for r in records if r.case is not None}
    assert len(turns) == len(records)
    assert all(r.case is not None and 1 <= r.case.turn <= r.case.turns for r in records)


def test_a_later_turn_searches_with_the_thread_before_it(cases_run: Path) -> None:
    with RunStore(cases_run, create=False) as store:
        records = [r for r in store.records() if r.scenario == "clean" and r.case
                   and r.contract_mode == "strict" and r.arm == "uncontrolled"]
        trajectories = store.trajectories(r.key.as_str() for r in records)
    first = {r.case.case_id: r.case for r in records if r.case and r.case.turn == 1}
    searched = 0
    for r in records:
        assert r.case is not None
        if r.case.turn != 2:
            continue
        earlier = first[r.case.case_id]
        assert earlier.reply is not None
        assert r.case.history == ((earlier.message, earlier.reply.text),)
        steps = json.loads(trajectories[r.key.as_str()])["steps"]
        if steps:
            assert steps[0]["args"]["query"] == f"{earlier.message} {r.case.message}"
            searched += 1
    assert searched >= 8


def test_a_thread_holds_every_exchange_of_its_case() -> None:
    config = cases_config(tasks=2, scenarios=("clean",), modes=("strict",),
                          arms=("uncontrolled",))
    runner = CaseRunner(config)
    cells = case_cells(config, runner.cases)

    async def run_all() -> list[list[str]]:
        for position in range(max(len(c.case.turns) for c in cells)):
            await runner.arun_position([c for c in cells if position < len(c.case.turns)],
                                       position)
        return [[user for user, _ in exchanges(
            (await memory_of(runner.threads, c.thread_id(), 9))["messages"])] for c in cells]

    threads = asyncio.run(run_all())
    assert threads == [[t.message for t in c.case.turns] for c in cells]


def test_faults_act_on_the_scheduled_turn_only(cases_run: Path) -> None:
    for r in _records(cases_run):
        assert r.case is not None
        assert r.case.fault_active == (r.case.turn == 2)
    at_one = {r.case.turn: r.case.fault_active for r in _records(cases_run)
              if r.case and r.scenario == "clean"}
    assert at_one[2] is True  # clean "acts" too: it has no fault, so nothing changes


def test_leaked_memory_hurts_later_turns_and_session_isolation_restores_them(
        cases_run: Path) -> None:
    report = cases_report_from_store(cases_run, replicates=50)
    for mode in ("strict", "repair"):
        leaked = _after(report, "uncontrolled", "wrong_session", mode)
        exact, clean = leaked.identifier_exact.value, leaked.clean_identifier_exact.value
        assert exact is not None and clean is not None and exact < clean - 0.2
        isolated = _after(report, "session_isolation", "wrong_session", mode)
        assert isolated.identifier_exact == isolated.clean_identifier_exact
    memories = {r.case.memory for r in _records(cases_run)
                if r.case and r.scenario == "wrong_session" and r.case.turn == 2}
    assert memories == {"foreign", "refused"}  # uncontrolled took it in, isolation refused


def test_schema_repair_is_credited_for_the_contract_only(cases_run: Path) -> None:
    report = cases_report_from_store(cases_run, replicates=50)
    clean = _cell(report, "uncontrolled", "clean", "strict").resolved.k
    assert clean > 0
    assert _cell(report, "uncontrolled", "schema_drift", "strict").resolved.k == 0
    assert _cell(report, "uncontrolled", "schema_drift", "repair").resolved.k == clean
    for scenario in ("clean", "stale_index", "wrong_session"):
        strict = _cell(report, "uncontrolled", scenario, "strict")
        repair = _cell(report, "uncontrolled", scenario, "repair")
        assert (strict.resolved, strict.safe) == (repair.resolved, repair.safe), scenario


def test_negative_controls_resolve_no_case(cases_run: Path) -> None:
    report = cases_report_from_store(cases_run, replicates=50)
    for scenario in ("stale_index", "wrong_session"):
        for mode in ("strict", "repair"):
            cell = _cell(report, "uncontrolled", scenario, mode)
            assert cell.resolved.k == 0
            layer = {"stale_index": "freshness", "wrong_session": "session"}[scenario]
            at_the_fault = {f: n for f, n in cell.first_failures.items()
                            if f.startswith("turn 2:")}
            assert set(at_the_fault) == {f"turn 2: {layer}"}  # the fault's layer, at its turn
            assert all(f.startswith("turn 1:") for f in cell.first_failures
                       if f not in at_the_fault)  # or the reader's own, before it


def test_resume_after_losing_turns_writes_exactly_those_and_the_same(
        cases_run: Path, tmp_path: Path) -> None:
    run = Path(shutil.copytree(cases_run, tmp_path / "run"))
    before = {r.key.as_str(): r for r in _records(run)}
    with sqlite3.connect(run / "runs.sqlite") as db:  # a run killed after turn 2
        lost = db.execute("SELECT COUNT(*) FROM records WHERE key IN (SELECT key FROM "
                          "records)").fetchone()[0]
        keys = [k for k, r in before.items() if r.case and r.case.turn >= 3]
        db.executemany("DELETE FROM records WHERE key=?", [(k,) for k in keys])
    assert lost == len(before)
    summary = run_cases(cases_config(), run)
    assert summary.written == len(keys) and summary.already_done == len(before) - len(keys)
    after = {r.key.as_str(): r for r in _records(run)}
    assert after.keys() == before.keys()
    for key in keys:
        old, new = before[key], after[key]
        assert old.case is not None and new.case is not None
        assert (new.S, new.answer, new.case.reply, new.case.memory) == \
            (old.S, old.answer, old.case.reply, old.case.memory), key


def test_the_paired_contrasts_credit_schema_repair_and_session_isolation(
        cases_run: Path) -> None:
    report = cases_report_from_store(cases_run, replicates=50)
    found = {(c.kind, c.arm, c.scenario, c.contract_mode): c for c in report.contrasts}
    repair = found[("repair - strict", "uncontrolled", "schema_drift", "both")]
    assert repair.resolved.estimate > 0.2 and repair.resolved.low > 0
    for scenario in ("clean", "stale_index", "wrong_session"):
        assert found[("repair - strict", "uncontrolled", scenario, "both")].resolved.estimate \
            == 0
    isolation = found[("session_isolation - uncontrolled", "session_isolation",
                       "wrong_session", "strict")]
    # isolation turns the leak into safe non-answers: safer, not resolved (turn 2 has no S)
    assert isolation.safe.estimate > 0 and isolation.safe.pairs == 16
    assert isolation.resolved.estimate == 0
    assert found[("session_isolation - uncontrolled", "session_isolation", "clean",
                  "strict")].safe.estimate == 0
