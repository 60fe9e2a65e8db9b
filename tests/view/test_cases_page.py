"""The page ``layerrag view`` writes for a cases run, read as a file: every conversation of
the run turn by turn as the store holds it, each beside its clean twin, the report's own
numbers, aggregates only over an archive, and one-line refusals of inputs it cannot mix."""

from __future__ import annotations

import re
import shutil
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from simulator.cli.main import main
from simulator.report import cases_conversations
from simulator.report.cases import cases_report_from_store
from simulator.report.cases_conversations import INCOMPLETE, run_conversations
from simulator.report.cases_view import cases_heatmaps
from simulator.runner.record import RunRecord
from simulator.runner.store import RunStore
from tests.cli.test_bad_input import one_line_error
from tests.view.page_data import meta, packed


def _turns(run_dir: Path) -> list[RunRecord]:
    with RunStore(run_dir, create=False) as store:
        return [r for r in store.records() if r.case is not None]


def _identity(c: dict[str, Any]) -> tuple[Any, ...]:
    return (c["model"], c["agent"], c["scenario"], c["contract_mode"], c["arm"], c["case_id"],
            c["epoch"])


def test_the_page_carries_every_turn_as_the_store_holds_it(cases_page: Path,
                                                           small_cases_run: Path) -> None:
    conversations = packed(cases_page.read_text())
    stored = {(r.model, r.agent, r.scenario, r.contract_mode, r.arm, r.case.case_id,
               r.case.epoch, r.case.turn): r for r in _turns(small_cases_run) if r.case}
    shown = {(*_identity(c), t["turn"]): t for c in conversations for t in c["turns"]}
    assert shown.keys() == stored.keys()
    for key, turn in shown.items():
        case = stored[key].case
        assert case is not None
        assert (turn["kind"], turn["message"], turn["memory"], turn["fault_active"]) == (
            case.kind, case.message, case.memory, case.fault_active)
        assert [tuple(h) for h in turn["history"]] == list(case.history)
        assert turn["score"] == case.score.model_dump(mode="json")
        assert turn["reply"] == (case.reply.model_dump(mode="json") if case.reply else None)
        assert turn["trajectory"]["question"]  # the stored trajectory travels with the turn
    for c in conversations:
        assert [t["turn"] for t in c["turns"]] == list(range(1, c["turn_count"] + 1))
    assert any(t["memory"] == "foreign" for t in shown.values())  # wrong_session served one


def test_resolved_conversations_agree_with_the_cases_report(cases_page: Path,
                                                            small_cases_run: Path) -> None:
    report = cases_report_from_store(small_cases_run, replicates=20)
    resolved = Counter((c["arm"], c["scenario"], c["contract_mode"])
                       for c in packed(cases_page.read_text()) if c["resolved"])
    safe = Counter((c["arm"], c["scenario"], c["contract_mode"])
                   for c in packed(cases_page.read_text()) if c["safe"])
    for cell in report.cases:
        key = (cell.arm, cell.scenario, cell.contract_mode)
        assert (resolved[key], safe[key]) == (cell.resolved.k, cell.safe.k)
    assert meta(cases_page.read_text())["heatmaps"] == cases_heatmaps(report)


def test_each_conversation_points_at_its_clean_twin(cases_page: Path) -> None:
    conversations = packed(cases_page.read_text())
    for c in conversations:
        if c["scenario"] == "clean":
            assert c["twin"] is None
            continue
        twin = conversations[c["twin"]]
        assert twin["scenario"] == "clean"
        assert _identity(twin)[:2] + _identity(twin)[3:] == _identity(c)[:2] + _identity(c)[3:]
    assert sum(c["twin"] is not None for c in conversations) == 2 * 8 * 2  # 2 faults x 8 x arms


def test_the_page_names_no_outside_resource(cases_page: Path) -> None:
    page = cases_page.read_text()
    assert "http://" not in page and "https://" not in page
    assert not re.search(r"<(script|link|img)[^>]+(src|href)=", page)
    assert "<table>" in page and "Turns by position" in page  # the report's own tables


def test_a_cases_archive_gives_aggregates_only_and_no_conversation_text(
        small_cases_run: Path, tmp_path: Path) -> None:
    archive, out = tmp_path / "cases.jsonl.gz", tmp_path / "archive.html"
    assert main(["archive", "export", str(small_cases_run), "--out", str(archive)]) == 0
    assert main(["view", str(archive), "--out", str(out), "--replicates", "50"]) == 0
    page = out.read_text()
    assert packed(page) == []
    assert "keeps no messages, replies or trajectories" in meta(page)["archive_note"]
    assert meta(page)["heatmaps"] == cases_heatmaps(
        cases_report_from_store(small_cases_run, replicates=20))
    for record in _turns(small_cases_run):
        assert record.case is not None and record.case.reply is not None
        for text in (record.case.message, record.case.reply.text, record.case.case_key):
            assert text not in page


def test_a_conversation_with_a_turn_missing_is_incomplete_never_resolved(
        small_cases_run: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut"
    shutil.copytree(small_cases_run, cut)
    record = next(r for r in _turns(cut) if r.case is not None and r.case.turn == 2)
    assert record.case is not None
    with sqlite3.connect(cut / "runs.sqlite") as db:
        db.execute("DELETE FROM records WHERE key = ?", (record.key.as_str(),))
    (shown,) = [c for c in run_conversations(cut).shown
                if (c.scenario, c.contract_mode, c.arm, c.case_id) == (
                    record.scenario, record.contract_mode, record.arm, record.case.case_id)]
    assert (shown.complete, shown.resolved, shown.failed_layer) == (False, False, INCOMPLETE)
    assert [t.turn for t in shown.turns] == [n for n in range(1, shown.turn_count + 1) if n != 2]


def test_above_the_cap_whole_twin_groups_are_sampled_and_said(
        small_cases_run: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cases_conversations, "CONVERSATION_CAP", 10)
    first, second = run_conversations(small_cases_run), run_conversations(small_cases_run)
    assert first == second and first.sampled and first.total == 3 * 8 * 2
    assert len(first.shown) == 9  # three twin groups of three scenarios
    for c in first.shown:
        assert c.scenario == "clean" or first.shown[c.twin or 0].scenario == "clean"


def test_mixing_a_cases_run_with_a_single_turn_run_is_refused_in_one_line(
        small_cases_run: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    single, out = tmp_path / "single", tmp_path / "mixed.html"
    assert main(["run", "--tasks", "2", "--scenarios", "clean", "--modes", "strict", "--out",
                 str(single), "--format", "none", "--no-progress"]) == 0
    capsys.readouterr()
    err = one_line_error(capsys, "view", str(single), str(small_cases_run), "--out", str(out))
    assert f"{small_cases_run} is a cases run and {single} a single-turn run" in err
    assert not out.exists()


def test_two_cases_runs_make_no_page(small_cases_run: Path, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "two.html"
    err = one_line_error(capsys, "view", str(small_cases_run), str(small_cases_run),
                         "--out", str(out))
    assert "a cases run is viewed on its own" in err and not out.exists()


def test_with_epochs_each_conversation_is_paired_with_its_own_epoch_s_twin(
        tmp_path: Path) -> None:
    run = tmp_path / "epochs"
    assert main(["run", "--suite", "cases", "--tasks", "2", "--epochs", "2", "--scenarios",
                 "clean,wrong_session", "--modes", "strict", "--out", str(run), "--format",
                 "none", "--no-progress"]) == 0
    shown = run_conversations(run).shown
    assert sorted((c.scenario, c.epoch) for c in shown) == sorted(
        [(s, e) for s in ("clean", "wrong_session") for e in (1, 2)] * 2)
    for c in shown:
        if c.scenario != "clean":
            assert c.twin is not None
            twin = shown[c.twin]
            assert (twin.scenario, twin.case_id, twin.epoch) == ("clean", c.case_id, c.epoch)
