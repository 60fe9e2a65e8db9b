"""Judge metrics by scenario x contract mode (x arm): means with hierarchical bootstrap
intervals, severity-band distributions and S_final.

Each mean is over the records where the metric applies; unjudged records are counted in
their own column and enter no mean. Intervals are the report's two-level bootstrap
(:func:`~simulator.stats.bootstrap.hierarchical_bootstrap`): model units (provider, model),
then policy units inside each, so a unit's three question variants move together.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from simulator.judge.metrics import BANDS, METRIC_NAMES, MetricName, band_of
from simulator.judge.run import JudgedRecord
from simulator.stats.bootstrap import hierarchical_bootstrap, percentile_interval
from simulator.stats.layers import ordered_modes, ordered_scenarios


class MeanInterval(BaseModel):
    """A mean over ``n`` records with its 95 % bootstrap interval and band counts."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    n: int
    mean: float
    low: float
    high: float
    bands: dict[str, int]
    """Band -> how many of the ``n`` records fall in it."""


class CellSummary(BaseModel):
    """One (arm, scenario, contract mode) cell of the judge table."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    arm: str
    scenario: str
    contract_mode: str
    records: int
    judged: int
    unjudged: int
    metrics: dict[MetricName, MeanInterval | None]
    """None: the metric applied to no judged record of the cell."""
    s_final: MeanInterval | None
    gf_rate: float | None
    """Share of the judged records that are groundedness false positives (grounded, not
    S): high where a faithfulness check passes what the judge's other metrics fail."""
    main_issue: str | None
    """The most common justification of the cell's lowest-scoring metric, when below the
    top band: what a reader should look at first."""


def _interval(values: Sequence[float], units: Sequence[str], clusters: Sequence[str], *,
              replicates: int, seed: int) -> MeanInterval:
    mean = sum(values) / len(values)
    low, high = percentile_interval(hierarchical_bootstrap(values, units, clusters,
                                                           replicates=replicates, seed=seed))
    counts = Counter(band_of(v) for v in values)
    return MeanInterval(n=len(values), mean=mean, low=min(low, mean), high=max(high, mean),
                        bands={b: counts.get(b, 0) for b in BANDS})


def summarize(judged: Sequence[JudgedRecord], weights: Mapping[MetricName, float], *,
              replicates: int = 2000, seed: int = 0) -> list[CellSummary]:
    """The judge table's cells, in the report's arm, scenario and mode order."""
    cells: dict[tuple[str, str, str], list[JudgedRecord]] = {}
    for item in judged:
        cells.setdefault((item.arm, item.scenario, item.contract_mode), []).append(item)
    arms = sorted({a for a, _, _ in cells}, key=lambda a: (a != "uncontrolled", a))
    scenarios = ordered_scenarios(s for _, s, _ in cells)
    modes = ordered_modes(m for _, _, m in cells)
    out = []
    for arm in arms:
        for scenario in scenarios:
            for mode in modes:
                items = cells.get((arm, scenario, mode))
                if items:
                    out.append(_cell(arm, scenario, mode, items, weights,
                                     replicates=replicates, seed=seed))
    return out


def _cell(arm: str, scenario: str, mode: str, items: Sequence[JudgedRecord],
          weights: Mapping[MetricName, float], *, replicates: int, seed: int) -> CellSummary:
    judged = [i for i in items if i.judgment.status == "judged"]
    metrics: dict[MetricName, MeanInterval | None] = {}
    for metric in METRIC_NAMES:
        rows = [(i, i.judgment.value(metric)) for i in judged]
        metrics[metric] = _over([(i, v) for i, v in rows if v is not None],
                                replicates=replicates, seed=seed)
    finals = [(i, i.judgment.s_final(weights)) for i in judged]
    s_final = _over([(i, v) for i, v in finals if v is not None], replicates=replicates,
                    seed=seed)
    return CellSummary(arm=arm, scenario=scenario, contract_mode=mode, records=len(items),
                       judged=len(judged), unjudged=len(items) - len(judged),
                       metrics=metrics, s_final=s_final, gf_rate=_gf_rate(judged),
                       main_issue=_main_issue(judged,
                                                                                metrics))


def _gf_rate(judged: Sequence[JudgedRecord]) -> float | None:
    flags = [i.groundedness_false_positive for i in judged
             if i.groundedness_false_positive is not None]
    return sum(flags) / len(flags) if flags else None


def _over(rows: Sequence[tuple[JudgedRecord, float | None]], *, replicates: int,
          seed: int) -> MeanInterval | None:
    if not rows:
        return None
    units = [f"{i.provider}|{i.model}" for i, _ in rows]
    clusters = [f"{i.provider}|{i.model}|{i.unit}" for i, _ in rows]
    return _interval([float(v) for _, v in rows if v is not None], units, clusters,
                     replicates=replicates, seed=seed)


def _main_issue(judged: Sequence[JudgedRecord],
                metrics: Mapping[MetricName, MeanInterval | None]) -> str | None:
    scored = [(m.mean, name) for name, m in metrics.items() if m is not None]
    if not scored:
        return None
    mean, worst = min(scored)
    if band_of(mean) == "none":
        return None
    reasons = Counter(i.judgment.scores[worst].justification for i in judged
                      if i.judgment.scores[worst].value is not None)
    why = reasons.most_common(1)[0][0]
    return f"{worst}: {why}" if why else worst  # an archive carries no justification


def as_json(cells: Sequence[CellSummary], *, weights_name: str,
            weights: Mapping[MetricName, float], judge: str, rubric: str,
            replicates: int, seed: int) -> dict[str, Any]:
    """The judge table as one JSON object (``layerrag judge --json``)."""
    return {"judge": judge, "rubric_hash": rubric, "weights": weights_name,
            "weight_values": dict(weights), "replicates": replicates, "seed": seed,
            "cells": [c.model_dump(mode="json") for c in cells]}


def judged_from_archive(path: Path) -> tuple[list[JudgedRecord], str, str]:
    """The judged records an archive's ``judge_*`` columns hold, with the judge's name and
    rubric hash: the judge table recomputed from the archive alone."""
    from simulator.archive.codec import load_archive
    from simulator.errors import UsageError
    from simulator.judge.model import Judgment, MetricScore

    archive = load_archive(path)
    judge = archive.header.judge
    if judge is None:
        raise UsageError(f"{path}: the archive holds no judge scores; export it with "
                         "layerrag archive export RUN_DIR --judge NAME")
    out: list[JudgedRecord] = []
    for row in archive.rows:
        key = "|".join(str(v) for v in (row.model, row.scenario, row.contract_mode, row.arm,
                                        row.task_row))
        status = getattr(row, "judge_status", None)
        if status == "judged":
            scores = {m: MetricScore(value=getattr(row, f"judge_{m}"),
                                     band=getattr(row, f"judge_{m}_band"), justification="")
                      for m in METRIC_NAMES}
            judgment = Judgment(key=key, judge=judge.name, rubric_hash=judge.rubric_hash,
                                status="judged", scores=scores)
        else:
            judgment = Judgment(key=key, judge=judge.name, rubric_hash=judge.rubric_hash,
                                status="unjudged", reason="unjudged" if status else
                                "not judged by the archive's judge")
        out.append(JudgedRecord(judgment, row.provider, row.model, row.scenario,
                                row.contract_mode, row.arm, row.unit, row.task_row,
                                bool(row.grounded and not row.S)))
    return out, judge.name, judge.rubric_hash
