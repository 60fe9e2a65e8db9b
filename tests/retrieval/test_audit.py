"""The retriever audit on the tiny corpus: its shape, its rules, and determinism."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.corpus import Corpus, Labels, build_corpus
from simulator.retrieval import (
    CONDITIONS,
    RetrieverAudit,
    audit_retrievers,
    prefers_current,
    retrievers,
)
from tests.conftest import TINY_SPEC


@pytest.fixture(scope="module")
def tiny_audit(tiny_corpus: Corpus) -> RetrieverAudit:
    return audit_retrievers(tiny_corpus, seed=0)


def labels(required: str = "cur", superseded: str = "old") -> Labels:
    return Labels(task_id="t", row=0, unit=0, unit_id="U", variant=0, domain="returns",
                  answer_format="role", expected_answer="x", accepted_answers=("x",),
                  superseded_answers=("y",),
                  required_doc_ids=(required,), superseded_doc_ids=(superseded,),
                  access_group="all-staff")


def test_the_audit_is_deterministic(tiny_corpus: Corpus, tiny_audit: RetrieverAudit) -> None:
    assert audit_retrievers(tiny_corpus, seed=0) == tiny_audit


def test_every_retriever_is_audited_under_every_condition(tiny_audit: RetrieverAudit) -> None:
    assert tiny_audit.retrievers == tuple(retrievers.names())
    assert tiny_audit.conditions == CONDITIONS
    assert len(tiny_audit.cells) == len(tiny_audit.retrievers) * len(CONDITIONS)
    assert all(cell.tasks == 12 for cell in tiny_audit.cells)


def test_validity_finds_every_current_version_of_the_tiny_corpus(
        tiny_audit: RetrieverAudit) -> None:
    cell = tiny_audit.cell("tfidf_domain_validity", "clean")
    assert (cell.top1_recall, cell.current_preference) == (1.0, 1.0)


def test_corrupted_validity_metadata_lowers_the_reported_retrievers_recall(
        tiny_audit: RetrieverAudit) -> None:
    clean = tiny_audit.cell("tfidf_domain_validity", "clean")
    corrupted = tiny_audit.cell("tfidf_domain_validity", "corrupted_metadata")
    assert corrupted.top1_recall < clean.top1_recall


def test_the_domain_filter_collapses_under_corrupted_domains(
        tiny_audit: RetrieverAudit) -> None:
    cell = tiny_audit.cell("task_domain_filter", "corrupted_domain_metadata")
    assert (cell.top1, cell.top3, cell.preferred) == (0, 0, 0)


def test_the_domain_heuristic_counts_every_task_once(tiny_audit: RetrieverAudit) -> None:
    counts = tiny_audit.domain_heuristic
    assert (counts.correct, counts.incorrect, counts.unresolved) == (9, 0, 3)
    assert counts.correct + counts.incorrect + counts.unresolved == counts.total == 12


def test_a_current_version_above_its_twin_is_preferred() -> None:
    assert prefers_current(["cur", "x", "old"], labels())
    assert not prefers_current(["old", "cur"], labels())


def test_a_twin_missing_from_the_ranking_counts_as_ranked_below() -> None:
    assert prefers_current(["x", "cur"], labels())


def test_a_current_version_missing_from_the_ranking_is_not_preferred() -> None:
    assert not prefers_current(["x"], labels())
    assert not prefers_current([], labels())


def test_a_question_shared_across_domains_is_reported_as_a_collision(tmp_path: Path) -> None:
    spec = tmp_path / "spec"
    shutil.copytree(TINY_SPEC, spec)
    shared = "What is the threshold or fee?"  # matches a unit of each domain
    for name, old in (("returns.toml", "If a customer returns an opened laptop, what fee is "
                                       "charged?"),
                      ("finance.toml", "What is the director approval threshold for expenses?")):
        path = spec / name
        path.write_text(path.read_text().replace(old, shared))
    audit = audit_retrievers(build_corpus(spec), seed=0)
    (collision,) = audit.collisions
    assert collision.question == shared
    assert {task.domain for task in collision.tasks} == {"returns", "finance"}
    assert all(task.top1["task_domain_filter"] for task in collision.tasks)
    assert sum(task.top1["tfidf_domain_validity"] for task in collision.tasks) <= 1


def test_a_cue_shared_across_domains_is_followed_to_the_questions_it_ties(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "spec"
    shutil.copytree(TINY_SPEC, spec)
    finance = spec / "finance.toml"
    finance.write_text(finance.read_text().replace('cues = ["expense"',
                                                   'cues = ["returns", "expense"'))
    audit = audit_retrievers(build_corpus(spec), seed=0)
    (shared,) = audit.cue_collisions
    assert {(shared.cue, shared.domain), (shared.other_cue, shared.other_domain)} == {
        ("return", "returns"), ("returns", "finance")}
    assert len(shared.rows) == 3 and len(shared.tied_rows) == 2
    assert [tie.row for tie in audit.ties] == list(shared.tied_rows)
    assert all(set(tie.tied) == {"returns", "finance"} for tie in audit.ties)
    assert main(["audit", "retriever", "--spec", str(spec)]) == 0
    out = capsys.readouterr().out
    assert "in 3 questions, ties 2" in out and "tied returns = finance" in out


def test_a_corpus_without_shared_cues_says_so(tiny_audit: RetrieverAudit) -> None:
    assert tiny_audit.cue_collisions == () and tiny_audit.ties == ()


def test_the_cli_prints_the_audit_as_json(tiny_audit: RetrieverAudit,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "retriever", "--spec", str(TINY_SPEC), "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert RetrieverAudit.model_validate(printed) == tiny_audit


def test_the_cli_prints_a_readable_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "retriever", "--spec", str(TINY_SPEC)]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines()]
    assert ["task_domain_filter", "corrupted_domain_metadata", "0.000", "0.000",
            "0.000"] in rows
    assert "9 correct, 0 incorrect, 3 unresolved of 12" in out


def test_the_cli_reports_a_missing_spec_folder_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "retriever", "--spec", str(tmp_path / "nope")]) == 2
    assert capsys.readouterr().err.count("\n") == 1
