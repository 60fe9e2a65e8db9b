"""What a judge returns: one :class:`MetricScore` per metric, gathered in a :class:`Judgment`.

"Not applicable" and "unjudged" are values, never a silent number. A metric that does not
apply has ``value=None``; a record the judge could not score (the agent or provider failed,
the answer was unparseable, the stored record is unreadable, an LLM judge's output stayed
malformed) is a judgment with ``status="unjudged"``, no scores and a reason, counted in its
own column and never averaged in.

S_final (paper Eq. 1) is the weighted sum over the *applicable* metrics with their weights
renormalised to sum to 1. The paper scores all eight on every turn; a single-turn record
without identifiers has three metrics that cannot apply, and counting them as 0 (or 1)
would move S_final by a rubric gap, not by the system. Renormalising keeps S_final in
[0, 1] and keeps the applicable metrics' relative weights as the profile sets them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from simulator.judge.metrics import METRIC_NAMES, BandOrNA, MetricName, band_of

JudgmentStatus = Literal["judged", "unjudged"]


class MetricScore(BaseModel):
    """One metric's score on one record."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    value: float | None = Field(default=None, ge=0.0, le=1.0)
    """The score in [0, 1]; None when the metric does not apply to this record."""
    band: BandOrNA
    """The severity band of ``value`` (``not_applicable`` when it has none)."""
    justification: str
    """Why: the rule that fired, or the judge's own words (never archived)."""

    @model_validator(mode="after")
    def _band_matches_value(self) -> MetricScore:
        expected = "not_applicable" if self.value is None else band_of(self.value)
        if self.band != expected:
            raise ValueError(f"band {self.band!r} does not match value {self.value} "
                             f"(expected {expected!r})")
        return self

    @classmethod
    def scored(cls, value: float, justification: str) -> MetricScore:
        return cls(value=value, band=band_of(value), justification=justification)

    @classmethod
    def not_applicable(cls, justification: str) -> MetricScore:
        return cls(value=None, band="not_applicable", justification=justification)


class Judgment(BaseModel):
    """A judge's verdict on one record."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    key: str
    """The record's store key (simulator.runner.record.RecordKey.as_str)."""
    judge: str
    """``deterministic`` or the LLM judge's model name."""
    rubric_hash: str
    """simulator.judge.metrics.rubric_hash of the rubric and the judge's rules / prompt."""
    status: JudgmentStatus
    scores: dict[MetricName, MetricScore] = Field(default_factory=dict)
    """All eight metrics when judged; empty when unjudged."""
    reason: str | None = None
    """Why the record is unjudged."""

    @model_validator(mode="after")
    def _complete_or_unjudged(self) -> Judgment:
        if self.status == "judged" and set(self.scores) != set(METRIC_NAMES):
            missing = sorted(set(METRIC_NAMES) - set(self.scores))
            raise ValueError(f"a judged record scores all eight metrics; missing {missing}")
        if self.status == "unjudged" and (self.scores or not self.reason):
            raise ValueError("an unjudged record has no scores and says why")
        return self

    def value(self, metric: MetricName) -> float | None:
        score = self.scores.get(metric)
        return None if score is None else score.value

    def s_final(self, weights: Mapping[MetricName, float]) -> float | None:
        """Weighted mean over the applicable metrics, weights renormalised (see module doc);
        None when unjudged or when no applicable metric carries weight."""
        if self.status != "judged":
            return None
        pairs = [(weights[m], s.value) for m, s in self.scores.items() if s.value is not None]
        total = sum(w for w, _ in pairs)
        if total <= 0:
            return None
        return sum(w * v for w, v in pairs) / total
