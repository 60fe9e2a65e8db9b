"""The eight metrics' vocabulary: names in the paper's order, bands at its edges."""

from __future__ import annotations

import pytest

from simulator.judge.metrics import BANDS, METRIC_NAMES, METRICS, band_of, rubric_hash


def test_the_eight_metrics_are_declared_in_the_papers_schema_order() -> None:
    assert tuple(m.name for m in METRICS) == METRIC_NAMES
    assert len(METRIC_NAMES) == 8
    assert METRIC_NAMES[0] == "hallucination"
    assert METRIC_NAMES[-1] == "case_resolution_alignment"


def test_every_metric_has_an_anchor_for_every_band() -> None:
    for metric in METRICS:
        assert set(metric.anchors) == set(BANDS), metric.name
        assert metric.definition


@pytest.mark.parametrize(("value", "band"), [
    (0.0, "severe"), (0.30, "severe"), (0.31, "moderate"), (0.60, "moderate"),
    (0.61, "minor"), (0.85, "minor"), (0.86, "none"), (1.0, "none")])
def test_bands_follow_the_papers_edges(value: float, band: str) -> None:
    assert band_of(value) == band


def test_a_score_outside_0_1_has_no_band() -> None:
    with pytest.raises(ValueError, match="lies in"):
        band_of(1.2)


def test_the_rubric_hash_changes_with_the_rules_text() -> None:
    assert rubric_hash("a") == rubric_hash("a")
    assert rubric_hash("a") != rubric_hash("b")
