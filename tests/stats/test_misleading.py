"""Misleading rate: counted only where the clean twin succeeded; paired contrasts by
position (same run) and by instruction (two runs, common cohort)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from simulator.stats.misleading import (
    eligible_rows,
    misleading_contrasts,
    misleading_rates,
)


def row(scenario: str, task: int, *, S: bool = False, misled: bool | None = None,
        run: str = "run-a", priority: str | None = None, arm: str = "uncontrolled",
        model: str = "m") -> Any:
    return SimpleNamespace(scenario=scenario, task_row=task, unit=task // 3, S=S,
                           misled=misled, run_id=run, provider="p", model=model,
                           agent="pipeline", arm=arm, contract_mode="strict",
                           source_priority=priority)


def test_a_record_counts_only_when_its_clean_twin_was_a_strict_success() -> None:
    rows = [row("clean", 0, S=True), row("misleading_end", 0, misled=True),
            row("clean", 1, S=False), row("misleading_end", 1, misled=True),
            row("misleading_end", 2, misled=True),  # no clean twin at all
            row("clean", 3, S=True), row("misleading_end", 3, misled=None)]  # no foil
    counted, left_out = eligible_rows(rows)
    assert [r.task_row for r in counted] == [0] and left_out == 3


def test_the_twin_is_taken_from_the_same_run_and_arm() -> None:
    rows = [row("clean", 0, S=True, run="run-a"), row("misleading_end", 0, misled=True,
                                                       run="run-b"),
            row("clean", 1, S=True, arm="other"), row("misleading_end", 1, misled=True)]
    assert eligible_rows(rows)[0] == []


def test_mr_is_misled_over_eligible_per_position() -> None:
    rows = [row("clean", t, S=True) for t in range(6)]
    rows += [row("misleading_end", t, misled=t < 4) for t in range(6)]
    rows += [row("misleading_middle", t, misled=t < 3) for t in range(6)]
    rates = {r.position: r for r in misleading_rates(rows, replicates=200)}
    assert (rates["end"].misled, rates["end"].eligible) == (4, 6)
    assert rates["end"].rate is not None and abs(rates["end"].rate.estimate - 4 / 6) < 1e-9
    assert rates["middle"].rate is not None and rates["middle"].rate.estimate == 0.5
    assert rates["end"].rate.low <= rates["end"].rate.estimate <= rates["end"].rate.high


def test_end_minus_middle_pairs_the_same_task_in_the_same_run() -> None:
    rows = [row("clean", t, S=True) for t in range(6)]
    rows += [row("misleading_end", t, misled=True) for t in range(6)]
    rows += [row("misleading_middle", t, misled=t % 2 == 0) for t in range(6)]
    found = [c for c in misleading_contrasts(rows, replicates=200)
             if (c.first, c.second) == ("end", "middle")]
    assert len(found) == 1 and found[0].effect.n == 6 and found[0].effect.estimate == 0.5


def test_strict_minus_soft_uses_the_tasks_counted_under_both_instructions() -> None:
    rows = []
    for priority, run, misled_tasks in (("strict", "run-s", {0, 1, 2, 3}),
                                        ("soft", "run-o", {0})):
        rows += [row("clean", t, S=t != 5 or priority == "strict", run=run,
                     priority=priority) for t in range(6)]
        rows += [row("misleading_beginning", t, misled=t in misled_tasks, run=run,
                     priority=priority) for t in range(6)]
    found = {c.within: c for c in misleading_contrasts(rows, replicates=200)
             if c.kind == "instruction"}
    assert set(found) == {"beginning", "all"}
    assert found["beginning"].effect.n == 5  # task 5 failed clean under soft
    assert abs(found["beginning"].effect.estimate - 3 / 5) < 1e-9
