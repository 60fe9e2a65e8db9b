"""examples/corpus_natural end to end: a corpus in plain prose with the new answer formats
validates, builds, audits and runs the full deterministic matrix like enterprise_v2."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

from simulator.answers.formats import parse_format
from simulator.cli.main import main
from simulator.corpus import Corpus, build_corpus
from simulator.runner.config import RunConfig
from simulator.runner.matrix import run_matrix
from simulator.runner.store import RunStore

NATURAL = Path(__file__).resolve().parents[2] / "examples" / "corpus_natural"
NEGATIVE_CONTROLS = ("stale_index", "missing_tool_output", "permission_denied", "wrong_session")

Table = dict[tuple[str, str], float]
"""(scenario, contract mode) -> strict success rate."""


@pytest.fixture(scope="module")
def natural() -> Corpus:
    return build_corpus(NATURAL)


def _success(out: Path) -> Table:
    hits: dict[tuple[str, str], list[bool]] = defaultdict(list)
    with RunStore(out) as store:
        for record in store.records():
            hits[(record.scenario, record.contract_mode)].append(record.S)
    return {cell: sum(s) / len(s) for cell, s in hits.items()}


@pytest.fixture(scope="module")
def matrix(tmp_path_factory: pytest.TempPathFactory) -> Table:
    """The full deterministic matrix on the example: 72 tasks x 9 scenarios x 2 modes."""
    out = tmp_path_factory.mktemp("natural_matrix")
    summary = run_matrix(RunConfig(spec=str(NATURAL)), out, progress=False)
    assert summary.total == summary.written == 1296
    return _success(out)


def test_the_example_validates_without_a_warning(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["corpus", "validate", "--spec", str(NATURAL), "--strict"]) == 0
    captured = capsys.readouterr()
    assert "3 domains, 24 units, 48 documents, 72 tasks" in captured.out
    assert captured.err == ""


def test_the_example_uses_the_formats_people_write(natural: Corpus) -> None:
    formats = {parse_format(t.answer_format).name for t in natural.tasks}
    assert {"choice", "frequency", "time_of_day", "queue_code", "count", "role"} <= formats
    values = {lab.expected_answer for lab in natural.labels}
    assert {"three", "two weeks", "twice a year", "9:30 pm", "the regional facilities lead",
            "a rotating draw", "ENG-HOTFIX"} <= values


def test_a_choice_task_states_its_options_and_nothing_else(natural: Corpus) -> None:
    (task, *_) = [t for t in natural.tasks if t.answer_format.startswith("choice")]
    assert task.answer_format == "choice (one of: a rotating draw | length of service)"


def test_the_example_builds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["corpus", "build", "--spec", str(NATURAL), "--out", str(tmp_path)]) == 0
    counts = json.loads(capsys.readouterr().out)["counts"]
    assert (counts["domains"], counts["units"], counts["documents"], counts["tasks"]) == (
        3, 24, 48, 72)


def test_the_retriever_audit_runs_and_finds_no_ambiguous_cue(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "retriever", "--spec", str(NATURAL), "--json"]) == 0
    audit = json.loads(capsys.readouterr().out)
    clean = next(c for c in audit["cells"] if c["retriever"] == "tfidf_domain_validity"
                 and c["condition"] == "clean")
    assert clean["top1_recall"] >= 0.9
    assert audit["collisions"] == [] and audit["cue_collisions"] == []


def test_clean_strict_success_is_at_least_0_85(matrix: Table) -> None:
    assert matrix[("clean", "strict")] >= 0.85
    assert matrix[("clean", "repair")] == matrix[("clean", "strict")]


def test_the_four_negative_controls_stay_at_zero(matrix: Table) -> None:
    for scenario in NEGATIVE_CONTROLS:
        for mode in ("strict", "repair"):
            assert matrix[(scenario, mode)] == 0.0, (scenario, mode)


def test_schema_repair_restores_what_the_strict_contract_rejects(matrix: Table) -> None:
    assert matrix[("schema_drift", "strict")] == 0.0
    assert matrix[("schema_drift", "repair")] == matrix[("clean", "strict")]


def test_schema_repair_is_credited_for_schema_drift_only(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["credit", "--policy", "schema_repair", "--spec", str(NATURAL), "--run",
                 str(tmp_path / "credit"), "--json", "--no-progress", "--replicates",
                 "300"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["verdict"] == "credited" and body["target_scenarios"] == ["schema_drift"]
    assert body["target_gain"] >= 0.85


def test_the_react_agent_reads_choice_and_declared_formats(tmp_path: Path) -> None:
    config = RunConfig(spec=str(NATURAL), agent="react", scenarios=("clean",),
                       modes=("strict",))
    run_matrix(config, tmp_path, progress=False)
    assert _success(tmp_path)[("clean", "strict")] >= 0.85
    with RunStore(tmp_path) as store:
        reasons = {r.reason for r in store.records()}
    assert not any(reason and "no answer format" in reason for reason in reasons)
