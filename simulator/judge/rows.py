"""Records with a judge's scores beside their outcomes, for paired statistics on a metric.

``layerrag credit --metric retrieval_correctness`` pairs arms on a judge score as it pairs
them on S: each row answers ``judge_<metric>`` (and ``judge_s_final``) with the judgment's
value, None where the record is unjudged or the metric does not apply, and every other
attribute with the record's own (simulator/stats/paired.py leaves such pairs out).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from simulator.judge.metrics import METRIC_NAMES, MetricName
from simulator.judge.model import Judgment


class JudgedRow:
    """A record (RunRecord or ArchiveRow) with one judgment's scores as attributes."""

    def __init__(self, record: Any, judgment: Judgment | None,
                 weights: Mapping[MetricName, float]) -> None:
        self._record = record
        self._scores: dict[str, float | None] = {
            f"judge_{m}": judgment.value(m) if judgment is not None else None
            for m in METRIC_NAMES}
        self._scores["judge_s_final"] = (judgment.s_final(weights) if judgment is not None
                                         else None)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("judge_") and name in self._scores:
            return self._scores[name]
        return getattr(self._record, name)


def judged_rows(records: Iterable[Any], judgments: Mapping[str, Judgment],
                weights: Mapping[MetricName, float]) -> list[JudgedRow]:
    """``records`` with the judgment stored for each record key (None where there is none)."""
    return [JudgedRow(r, judgments.get(r.key.as_str()), weights) for r in records]
