"""The paired Wilcoxon comparison of two systems on per-task S_final (the judge paper's
Table 2), checked against scipy on hand-made judgments and on two real judged runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from scipy.stats import wilcoxon  # type: ignore[import-untyped]

from simulator.judge.metrics import METRIC_NAMES
from simulator.judge.model import Judgment, MetricScore
from simulator.judge.run import JudgedRecord, judge_run
from simulator.judge.weights import load_weights
from simulator.runner.config import RunConfig
from simulator.runner.matrix import run_matrix
from simulator.stats.wilcoxon import ALL, compare

_, PAPER = load_weights("paper")


def _judged(row: int, value: float | None, *, scenario: str = "clean", model: str = "m"
            ) -> JudgedRecord:
    if value is None:
        judgment = Judgment(key=f"k{row}", judge="t", rubric_hash="h", status="unjudged",
                            reason="malformed")
    else:
        judgment = Judgment(key=f"k{row}", judge="t", rubric_hash="h", status="judged",
                            scores={m: MetricScore.scored(value, "r") for m in METRIC_NAMES})
    return JudgedRecord(judgment, "local", model, scenario, "strict", "uncontrolled",
                        row // 3, row)


def test_the_test_is_scipys_on_the_paired_task_means() -> None:
    a_values = [0.9, 0.8, 0.7, 0.95, 0.6, 0.85, 0.9, 0.4]
    b_values = [0.5, 0.8, 0.6, 0.70, 0.3, 0.80, 0.2, 0.45]
    a = [_judged(i, v) for i, v in enumerate(a_values)]
    b = [_judged(i, v) for i, v in enumerate(b_values)]
    cell, overall = compare(a, b, PAPER, replicates=200)
    diffs = [x - y for x, y in zip(a_values, b_values, strict=True)]
    expected = wilcoxon(diffs, zero_method="wilcox")
    assert cell.p_value == pytest.approx(expected.pvalue)
    assert cell.statistic == pytest.approx(expected.statistic)
    assert cell.pairs == 8 and cell.delta == pytest.approx(sum(diffs) / 8)
    assert cell.low <= cell.delta <= cell.high
    assert (overall.scenario, overall.contract_mode, overall.pairs) == (ALL, ALL, 8)


def test_an_unjudged_side_leaves_the_pair_out_never_zero() -> None:
    a = [_judged(0, 1.0), _judged(1, None), _judged(2, 1.0)]
    b = [_judged(0, 0.5), _judged(1, 0.5), _judged(2, 0.5)]
    cell = compare(a, b, PAPER, replicates=50)[0]
    assert cell.pairs == 2 and cell.mean_a == 1.0


def test_ties_everywhere_have_no_test_and_say_so() -> None:
    a = [_judged(i, 0.5) for i in range(5)]
    cell = compare(a, list(a), PAPER, replicates=50)[0]
    assert cell.p_value is None and cell.delta == 0.0
    assert cell.note == "every pair ties: no signed-rank test"


def test_few_untied_pairs_are_flagged() -> None:
    a = [_judged(i, 0.9) for i in range(3)]
    b = [_judged(i, 0.1) for i in range(3)]
    cell = compare(a, b, PAPER, replicates=50)[0]
    assert cell.p_value is not None and cell.p_value >= 0.05
    assert "cannot fall below 0.05" in (cell.note or "")


@pytest.fixture(scope="module")
def two_agents(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[JudgedRecord], ...]:
    out = []
    for agent in ("pipeline", "react"):
        run = tmp_path_factory.mktemp(agent)
        run_matrix(RunConfig(tasks=12, agent=agent, scenarios=("clean", "stale_index",
                                                               "schema_drift")),
                   run, progress=False)
        out.append(judge_run(run, store_results=False)[0])
    return tuple(out)


def test_two_real_runs_pair_on_every_task_of_every_cell(
        two_agents: tuple[list[JudgedRecord], ...]) -> None:
    pipeline, react = two_agents
    rows = compare(pipeline, react, PAPER, replicates=200)
    cells = [r for r in rows if r.scenario != ALL]
    assert {(r.scenario, r.contract_mode) for r in cells} == {
        (s, m) for s in ("clean", "stale_index", "schema_drift") for m in ("strict", "repair")}
    assert all(r.pairs == 12 for r in cells)
    overall = rows[-1]
    assert overall.pairs == 72 and overall.scenario == ALL
    same = compare(pipeline, pipeline, PAPER, replicates=50)
    assert all(r.p_value is None and r.delta == 0.0 for r in same)


def test_the_cli_compares_two_runs_and_refuses_runs_with_nothing_to_pair(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from simulator.cli.main import main
    from tests.cli.test_bad_input import one_line_error

    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    run_matrix(RunConfig(tasks=6, scenarios=("clean",)), a, progress=False)
    run_matrix(RunConfig(tasks=6, scenarios=("clean",), agent="react"), b, progress=False)
    run_matrix(RunConfig(tasks=6, scenarios=("stale_index",)), c, progress=False)
    assert main(["judge", str(a), "--compare", str(b), "--json", "--replicates", "50"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [(r["scenario"], r["pairs"]) for r in data["comparisons"]] == [
        ("clean", 6), ("clean", 6), (ALL, 12)]
    assert "nothing to pair" in one_line_error(capsys, "judge", str(a), "--compare", str(c))
