"""The open pipeline: no built-in stop before a prompt; the paper pipeline is unchanged."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.corpus import Corpus
from simulator.runner.config import RunConfig
from simulator.runner.matrix import Cell, MatrixRunner
from simulator.runner.record import RunRecord


def _records(corpus: Corpus, scenario: str, mode: str, pipeline: str,
             rows: range = range(24), arm: str = "uncontrolled") -> list[RunRecord]:
    runner = MatrixRunner(RunConfig(scenarios=(scenario,), modes=(mode,), arms=(arm,),
                                    pipeline=pipeline), corpus)
    return runner.run_cells([Cell("deterministic", scenario, mode, arm, corpus.tasks[r],
                                  corpus.labels[r]) for r in rows])


def test_a_denied_call_reaches_the_reader_with_the_callers_visible_hits_only(
        corpus: Corpus) -> None:
    records = _records(corpus, "permission_denied", "strict", "open")
    for rec in records:
        call = rec.trace["tool_calls"][0]
        assert call["access_denied"] and rec.trace["prompt_built"] and rec.prompt_hash
        required = set(corpus.labels[rec.task_row].required_doc_ids)
        assert set(rec.trace["evidence_doc_ids"]) <= set(call["doc_ids"])
        assert not required & set(rec.trace["evidence_doc_ids"])
        assert not rec.answerable and not rec.S
        # What is left is read (permission_denied withholds every group in force that
        # answers the question, so on enterprise_v2 nothing readable is), and a read of
        # nothing is an abstention: safe.
        assert rec.safe_resolution == rec.abstained


def test_missing_and_rejected_output_reach_the_reader_with_no_evidence(corpus: Corpus) -> None:
    for scenario in ("missing_tool_output", "schema_drift"):
        for rec in _records(corpus, scenario, "strict", "open", range(6)):
            assert rec.trace["prompt_built"] and rec.trace["evidence_doc_ids"] == []
            assert rec.abstained and rec.safe_resolution and not rec.S


def test_the_paper_pipeline_still_stops_before_any_prompt(corpus: Corpus) -> None:
    for scenario, mode in (("permission_denied", "repair"), ("missing_tool_output", "strict"),
                           ("schema_drift", "strict")):
        for rec in _records(corpus, scenario, mode, "paper", range(6)):
            assert rec.prompt_hash is None and not rec.trace["prompt_built"]
            assert rec.abstained and rec.safe_resolution


@pytest.mark.parametrize("scenario", ["clean", "stale_index", "partial_timeout",
                                      "wrong_session", "corrupted_metadata"])
def test_scenarios_without_a_stop_are_the_same_in_both_pipelines(corpus: Corpus,
                                                                  scenario: str) -> None:
    def outcome(rec: RunRecord) -> tuple[object, ...]:
        return (rec.task_row, rec.answer, rec.S, rec.safe_resolution, rec.prompt_hash)

    paper = _records(corpus, scenario, "strict", "paper")
    open_ = _records(corpus, scenario, "strict", "open")
    assert [outcome(r) for r in paper] == [outcome(r) for r in open_]


def test_a_policy_still_ends_a_denied_record_before_any_prompt(corpus: Corpus) -> None:
    for rec in _records(corpus, "permission_denied", "strict", "open", range(6),
                        arm="access_aware_abstention"):
        assert rec.prompt_hash is None and rec.safe_resolution
        assert rec.reason is not None and rec.reason.startswith("access denied:")


def test_the_paper_pipeline_keeps_the_run_id_of_runs_made_before_the_option() -> None:
    """Older run directories resume: the paper pipeline is not part of the hashed config."""
    legacy = RunConfig().model_dump(mode="json", exclude={"pipeline"})
    assert RunConfig(**legacy).run_id("abc") == RunConfig(pipeline="paper").run_id("abc")
    assert RunConfig(pipeline="open").run_id("abc") != RunConfig().run_id("abc")


def test_an_unknown_pipeline_is_one_line_with_a_suggestion(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert main(["run", "--out", str(out), "--tasks", "3", "--pipeline", "opne",
                 "--no-progress", "--format", "none"]) == 2
    err = capsys.readouterr().err
    assert "Unknown pipeline 'opne'. Did you mean: open?" in err and err.count("\n") == 1
    assert not (out / "runs.sqlite").exists()


def test_an_open_run_says_so_in_its_report_and_arms_table(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "open"
    assert main(["run", "--out", str(out), "--tasks", "6", "--scenarios", "permission_denied",
                 "--modes", "strict", "--arms", "uncontrolled,controlled", "--pipeline",
                 "open", "--no-progress", "--format", "md"]) == 0
    assert "- pipeline: open" in capsys.readouterr().out
    assert main(["study", "arms", str(out)]) == 0
    assert capsys.readouterr().out.startswith("# Arms compared (open pipeline)")
