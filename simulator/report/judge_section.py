"""The judge's tables in a report: ``layerrag report RUN_DIR --judge NAME``.

The section is built from the judgments a judge stored in the run store (``layerrag judge
RUN_DIR --judge NAME``); the report judges nothing itself, so it costs no judge call. The
same tables are what ``layerrag judge`` prints, from one renderer.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from simulator.judge.run import stored_judged
from simulator.judge.weights import load_weights
from simulator.runner.store import RunStore
from simulator.stats.judged import CellSummary, MeanInterval, summarize

if TYPE_CHECKING:
    from simulator.judge.metrics import MetricName


class JudgeSection(BaseModel):
    """One judge's table of a run: cells by arm x scenario x mode, under one rubric."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    judge: str
    rubric_hash: str
    weights: str
    weight_values: dict[str, float]
    cells: list[CellSummary]


def judge_section(run_dir: Path | str, judge: str, weights: str = "paper", *,
                  replicates: int = 2000, seed: int = 0) -> JudgeSection:
    """The section of ``judge``'s stored judgments in ``run_dir`` (a one-line error when the
    run holds none of that judge)."""
    weights_name, values = load_weights(weights)
    with RunStore(run_dir, create=False) as store:
        judged, rubric = stored_judged(store, judge)
    cells = summarize(judged, values, replicates=replicates, seed=seed)
    return JudgeSection(judge=judge, rubric_hash=rubric, weights=weights_name,
                        weight_values={str(m): w for m, w in values.items()}, cells=cells)


def render_judge(section: JudgeSection | None) -> list[str]:
    """The report's judge part: nothing unless the report was asked for a judge."""
    if section is None:
        return []
    return render_judge_tables(section.cells, weights_name=section.weights,
                               judge=section.judge, rubric=section.rubric_hash).splitlines() + [""]


def _fmt(m: MeanInterval | None) -> str:
    return "n/a" if m is None else f"{m.mean:.3f} [{m.low:.2f}, {m.high:.2f}]"


def _bands(m: MeanInterval | None) -> str:
    return "n/a" if m is None else "/".join(str(m.bands[b]) for b in m.bands)


def render_judge_tables(cells: Sequence[CellSummary], *, weights_name: str, judge: str,
                    rubric: str) -> str:
    """The judge table, the band table and the notes, as Markdown."""
    from simulator.judge.metrics import METRIC_NAMES, SHORT

    applied: list[MetricName] = [m for m in METRIC_NAMES
                                 if any(c.metrics[m] is not None for c in cells)]
    absent = [m for m in METRIC_NAMES if m not in applied]
    several_arms = len({c.arm for c in cells}) > 1
    lead = ["arm"] if several_arms else []

    def row_head(c: CellSummary) -> list[str]:
        return [*([c.arm] if several_arms else []), c.scenario, c.contract_mode]

    head = [*lead, "scenario", "mode", *(SHORT[m] for m in applied), "S_final", "GF",
            "judged", "unjudged", "main issue"]
    lines = [f"## Judge: {judge} (rubric {rubric}), weights {weights_name}", "",
             "Means over the records where a metric applies, 95% hierarchical bootstrap "
             "interval (model units, then policy units).", "",
             _row(head), _row(["---"] * len(head))]
    for c in cells:
        lines.append(_row([*row_head(c), *(_fmt(c.metrics[m]) for m in applied),
                           _fmt(c.s_final),
                           "n/a" if c.gf_rate is None else f"{c.gf_rate:.1%}",
                           str(c.judged), str(c.unjudged),
                           c.main_issue or ""]))
    band_head = [*lead, "scenario", "mode", *(SHORT[m] for m in applied), "S_final"]
    lines += ["", "### Severity bands (severe/moderate/minor/none counts)", "",
              _row(band_head), _row(["---"] * len(band_head))]
    for c in cells:
        lines.append(_row([*row_head(c), *(_bands(c.metrics[m]) for m in applied),
                           _bands(c.s_final)]))
    lines += ["", "Metrics: " + "; ".join(f"{SHORT[m]} = {m}" for m in applied) + "."]
    if absent:
        lines.append("Not applicable to any record here (never scored 0 or 1 by default): "
                     + ", ".join(absent) + ".")
    lines.append("S_final is renormalised over the applicable metrics (docs/judge.md). GF: "
                 "groundedness false positives (grounded and not S), what a faithfulness "
                 "check alone would pass.")
    return "\n".join(lines) + "\n"


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"
