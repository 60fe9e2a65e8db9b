"""Metric scores and judgments: bands match values, unjudged is a value, S_final renormalises."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from simulator.judge.metrics import METRIC_NAMES
from simulator.judge.model import Judgment, MetricScore
from simulator.judge.weights import PAPER


def _judgment(values: dict[str, float | None]) -> Judgment:
    scores = {m: (MetricScore.not_applicable("n/a") if values.get(m) is None
                  else MetricScore.scored(values[m], "rule")) for m in METRIC_NAMES}
    return Judgment(key="k", judge="deterministic", rubric_hash="h", status="judged",
                    scores=scores)


def test_a_band_that_does_not_match_the_value_is_refused() -> None:
    with pytest.raises(ValidationError, match="does not match"):
        MetricScore(value=0.2, band="none", justification="x")


def test_not_applicable_has_no_value() -> None:
    with pytest.raises(ValidationError):
        MetricScore(value=0.0, band="not_applicable", justification="x")


def test_s_final_renormalises_over_the_applicable_metrics() -> None:
    judgment = _judgment({"hallucination": 1.0, "retrieval_correctness": 0.0})
    # 0.20 * 1 + 0.15 * 0 over 0.35
    assert judgment.s_final(PAPER) == pytest.approx(0.20 / 0.35)


def test_s_final_with_every_metric_is_the_papers_weighted_sum() -> None:
    judgment = _judgment(dict.fromkeys(METRIC_NAMES, 0.5) | {"hallucination": 1.0})
    assert judgment.s_final(PAPER) == pytest.approx(0.5 + 0.20 * 0.5)


def test_an_unjudged_record_has_no_scores_and_no_s_final() -> None:
    judgment = Judgment(key="k", judge="deterministic", rubric_hash="h", status="unjudged",
                        reason="agent error: boom")
    assert judgment.s_final(PAPER) is None
    with pytest.raises(ValidationError):
        Judgment(key="k", judge="d", rubric_hash="h", status="unjudged")


def test_a_judged_record_scores_all_eight() -> None:
    with pytest.raises(ValidationError, match="missing"):
        Judgment(key="k", judge="d", rubric_hash="h", status="judged",
                 scores={"hallucination": MetricScore.scored(1.0, "x")})
