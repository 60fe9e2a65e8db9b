"""Two systems compared on the judge's S_final, task by task: the paper's Table 2.

The case-aware judge paper compares two models with a paired Wilcoxon signed-rank test on
per-case weighted aggregates. Here a "case" is a task of one (arm, scenario, contract
mode) cell, answered by both systems (two runs, or two models of one run): each side's
S_final for that task is the mean over its judged records of the task in the cell, so a
system with several models counts as one. Beside the test stands the paired hierarchical
bootstrap interval of the mean difference, clustered on the policy unit as every other
interval here is, because a p-value says whether the systems differ and the interval says
by how much.

A pair where either side is unjudged is left out, never counted as 0. A cell whose pairs
all tie has no signed-rank test (every difference is zero): its p-value is None, said so.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict
from scipy.stats import wilcoxon  # type: ignore[import-untyped]

from simulator.judge.metrics import MetricName
from simulator.judge.run import JudgedRecord
from simulator.stats.bootstrap import hierarchical_bootstrap, percentile_interval
from simulator.stats.layers import ordered_modes, ordered_scenarios

ALL = "all"
"""The scenario and mode of the comparison over every pair of every cell."""
MIN_PAIRS = 6
"""Below this many non-tied pairs the two-sided exact test cannot reach p < 0.05, so its
p-value is reported with that caveat rather than withheld."""

Cell = tuple[str, str, str]
"""(arm, scenario, contract mode)."""


class Comparison(BaseModel):
    """System a against system b on one cell (or all of them)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    arm: str
    scenario: str
    contract_mode: str
    pairs: int
    """Tasks judged on both sides."""
    mean_a: float
    mean_b: float
    delta: float
    """mean_a - mean_b (the mean of the paired differences)."""
    low: float
    high: float
    """95 % paired hierarchical bootstrap interval of ``delta``."""
    statistic: float | None
    p_value: float | None
    """Two-sided Wilcoxon signed-rank p; None when every pair ties."""
    note: str | None = None


def per_task(judged: Sequence[JudgedRecord], weights: Mapping[MetricName, float]
             ) -> dict[tuple[Cell, int], tuple[float, str]]:
    """(cell, task row) -> (mean S_final over the judged records there, policy unit)."""
    sums: dict[tuple[Cell, int], list[float]] = defaultdict(list)
    units: dict[tuple[Cell, int], str] = {}
    for item in judged:
        if item.judgment.status != "judged" or item.task_row is None:
            continue
        value = item.judgment.s_final(weights)
        if value is None:
            continue
        key = ((item.arm, item.scenario, item.contract_mode), item.task_row)
        sums[key].append(value)
        units[key] = str(item.unit)
    return {key: (sum(v) / len(v), units[key]) for key, v in sums.items()}


def compare(judged_a: Sequence[JudgedRecord], judged_b: Sequence[JudgedRecord],
            weights: Mapping[MetricName, float], *, replicates: int = 2000, seed: int = 0
            ) -> list[Comparison]:
    """Per cell in the report's order, then over every cell (scenario and mode ``all``,
    one row per arm)."""
    a, b = per_task(judged_a, weights), per_task(judged_b, weights)
    paired = sorted(set(a) & set(b))
    by_cell: dict[Cell, list[tuple[float, float, str]]] = defaultdict(list)
    for key in paired:
        by_cell[key[0]].append((a[key][0], b[key][0], a[key][1]))
    arms = sorted({c[0] for c in by_cell}, key=lambda x: (x != "uncontrolled", x))
    scenarios = ordered_scenarios(c[1] for c in by_cell)
    modes = ordered_modes(c[2] for c in by_cell)
    out = [_one(cell, by_cell[cell], replicates, seed)
           for arm in arms for scenario in scenarios for mode in modes
           if (cell := (arm, scenario, mode)) in by_cell]
    for arm in arms:
        pooled = [p for cell, pairs in by_cell.items() if cell[0] == arm for p in pairs]
        out.append(_one((arm, ALL, ALL), pooled, replicates, seed))
    return out


def _one(cell: Cell, pairs: Sequence[tuple[float, float, str]], replicates: int,
         seed: int) -> Comparison:
    diffs = [x - y for x, y, _ in pairs]
    delta = sum(diffs) / len(diffs)
    low, high = percentile_interval(hierarchical_bootstrap(
        diffs, ["pairs"] * len(diffs), [u for _, _, u in pairs], replicates=replicates,
        seed=seed))
    untied = sum(1 for d in diffs if abs(d) > 1e-12)
    statistic = p_value = None
    note = None
    if untied == 0:
        note = "every pair ties: no signed-rank test"
    else:
        result = wilcoxon(diffs, zero_method="wilcox", alternative="two-sided")
        statistic, p_value = float(result.statistic), float(result.pvalue)
        if untied < MIN_PAIRS:
            note = f"only {untied} untied pairs: p cannot fall below 0.05"
    return Comparison(arm=cell[0], scenario=cell[1], contract_mode=cell[2],
                      pairs=len(pairs), mean_a=sum(x for x, _, _ in pairs) / len(pairs),
                      mean_b=sum(y for _, y, _ in pairs) / len(pairs), delta=delta,
                      low=min(low, delta), high=max(high, delta), statistic=statistic,
                      p_value=p_value, note=note)
