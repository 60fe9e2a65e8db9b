"""The focused study preset: its tasks, its 144 cells, and the controlled arm's figures."""

from __future__ import annotations

from pathlib import Path

import pytest

from simulator.corpus import Corpus
from simulator.evaluation import FocusedStudy, read_study, run_focused_study, select_tasks
from simulator.evaluation.render import study_markdown
from simulator.runner.config import RunConfig
from simulator.runner.matrix import MatrixRunner, cells
from simulator.runner.store import RunStore
from simulator.vocabulary import SCENARIO_NAMES


@pytest.fixture(scope="module")
def study_dir(corpus: Corpus, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("focused")
    run_focused_study(out, progress=False, corpus=corpus)
    return out


@pytest.fixture(scope="module")
def study(study_dir: Path) -> FocusedStudy:
    return read_study(study_dir)


def test_the_study_has_eight_tasks_nine_conditions_two_arms_and_144_cells(
        study_dir: Path, study: FocusedStudy) -> None:
    with RunStore(study_dir) as store:
        assert store.count() == 144
    assert len(study.task_rows) == 8 and len(set(study.domains)) == 8
    assert {c.scenario for c in study.cells} == set(SCENARIO_NAMES) and len(study.cells) == 18
    assert {c.contract_mode for c in study.cells} == {"strict"}


def test_tasks_are_the_first_strictly_correct_clean_task_of_each_domain(
        corpus: Corpus, study: FocusedStudy) -> None:
    config = RunConfig(scenarios=("clean",), modes=("strict",))
    clean = MatrixRunner(config, corpus).run_cells(list(cells(config, corpus)))
    by_row = {r.task_row: r for r in clean}
    for row, domain in zip(study.task_rows, study.domains, strict=True):
        assert by_row[row].S and by_row[row].domain == domain
        assert not any(r.S for r in clean if r.domain == domain and r.task_row < row)
    assert set(study.domains) == set(corpus.domains)
    assert select_tasks(corpus) == study.task_rows


def test_the_controlled_arm_answers_every_answerable_record_strictly(
        study: FocusedStudy) -> None:
    controlled = study.arm("controlled")
    assert controlled.answerable >= 24
    assert controlled.answerable_successes == controlled.answerable


def test_the_controlled_arm_resolves_every_unsafe_record_safely(study: FocusedStudy) -> None:
    controlled = study.arm("controlled")
    assert controlled.unsafe >= 24 and controlled.unsafe_safe == controlled.unsafe


def test_the_controlled_arm_gives_no_wrong_answer_and_no_incorrect_intervention(
        study: FocusedStudy) -> None:
    controlled = study.arm("controlled")
    assert controlled.wrong_answers == 0 and controlled.incorrect_interventions == 0
    assert study.controlled_is_safe()


def test_clean_strict_success_is_full_in_both_arms(study: FocusedStudy) -> None:
    for arm in study.arms:
        assert arm.clean_successes == arm.clean_records == 8


def test_the_uncontrolled_arm_answers_faults_wrongly(study: FocusedStudy) -> None:
    uncontrolled = study.arm("uncontrolled")
    assert uncontrolled.wrong_answers > 0 and uncontrolled.unsafe_safe < uncontrolled.unsafe


def test_the_table_is_laid_out_per_condition_and_arm(study: FocusedStudy) -> None:
    text = study_markdown(study)
    assert "| clean | none | S 8/8 | S 8/8 |" in text
    assert "| stale_index | freshness | safe 0/8 | safe 8/8 |" in text
    assert "meets the bar" in text


def test_rerunning_the_study_resumes_without_new_records(corpus: Corpus,
                                                         study_dir: Path) -> None:
    again = run_focused_study(study_dir, progress=False, corpus=corpus)
    with RunStore(study_dir) as store:
        assert store.count() == 144
    assert again.arms == read_study(study_dir).arms


def test_the_cli_prints_the_study_as_json(study_dir: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from simulator.cli.main import main

    assert main(["study", "focused", "--out", str(study_dir), "--format", "json",
                 "--no-progress"]) == 0
    body = json.loads(capsys.readouterr().out)
    assert body["controlled_is_safe"] and len(body["task_rows"]) == 8


def test_the_cli_compares_the_arms_of_a_run(study_dir: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    from simulator.cli.main import main

    assert main(["study", "arms", str(study_dir)]) == 0
    out = capsys.readouterr().out
    assert "| controlled | stale_index | strict | 8 | 0 | 8 |" in out
    assert "Incorrect interventions in all: 0" in out
