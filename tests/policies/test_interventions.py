"""Incorrect interventions: a control's non-answer where the uncontrolled arm was right."""

from __future__ import annotations

from dataclasses import dataclass

from simulator.evaluation import arm_table, incorrect_interventions


@dataclass(frozen=True)
class Row:
    arm: str
    S: bool
    abstained: bool
    safe_resolution: bool
    answerable: bool
    scenario: str = "clean"
    task_row: int = 0
    provider: str = "local"
    model: str = "deterministic"
    contract_mode: str = "strict"


RIGHT = Row("uncontrolled", S=True, abstained=False, safe_resolution=True, answerable=True)


def test_abstaining_on_an_answerable_record_the_baseline_got_right_is_counted() -> None:
    control = Row("controlled", S=False, abstained=True, safe_resolution=False, answerable=True)
    found = incorrect_interventions([RIGHT, control])
    assert [(i.arm, i.scenario, i.task_row) for i in found] == [("controlled", "clean", 0)]


def test_abstaining_where_nothing_was_answerable_is_not_an_intervention() -> None:
    control = Row("controlled", S=False, abstained=True, safe_resolution=True,
                  answerable=False)
    assert incorrect_interventions([RIGHT, control]) == []


def test_abstaining_where_the_baseline_was_wrong_is_not_an_intervention() -> None:
    wrong = Row("uncontrolled", S=False, abstained=False, safe_resolution=False,
                answerable=True)
    control = Row("controlled", S=False, abstained=True, safe_resolution=False, answerable=True)
    assert incorrect_interventions([wrong, control]) == []


def test_interventions_pair_on_the_task() -> None:
    control = Row("controlled", S=False, abstained=True, safe_resolution=False, answerable=True,
                  task_row=1)
    assert incorrect_interventions([RIGHT, control]) == []


def test_the_arm_table_counts_answerable_successes_safe_non_answers_and_wrong_answers() -> None:
    rows = [RIGHT,
            Row("uncontrolled", S=False, abstained=False, safe_resolution=False,
                answerable=False, task_row=1),
            Row("controlled", S=False, abstained=True, safe_resolution=False, answerable=True),
            Row("controlled", S=False, abstained=True, safe_resolution=True, answerable=False,
                task_row=1)]
    base, control = arm_table(rows)
    assert (base.arm, base.answerable_successes, base.unsafe_safe, base.wrong_answers) == \
        ("uncontrolled", 1, 0, 1)
    assert (control.answerable_successes, control.unsafe_safe, control.wrong_answers,
            control.incorrect_interventions) == (0, 1, 0, 1)
