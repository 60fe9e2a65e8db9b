"""The case-aware judge (arXiv 2602.20379): eight metrics with severity bands, S_final
weights and profiles, the deterministic reference judge, and judgments in the run store.
Rules and choices: docs/judge.md."""

from simulator.judge.deterministic import JUDGE_NAME, RUBRIC_HASH, judge_record
from simulator.judge.metrics import (
    BANDS,
    METRIC_NAMES,
    METRICS,
    Band,
    MetricName,
    MetricSpec,
    band_of,
    rubric_hash,
)
from simulator.judge.model import Judgment, MetricScore
from simulator.judge.weights import PROFILES, check_weights, load_weights

__all__ = [
    "BANDS", "JUDGE_NAME", "METRICS", "METRIC_NAMES", "PROFILES", "RUBRIC_HASH", "Band",
    "Judgment", "MetricName", "MetricScore", "MetricSpec", "band_of", "check_weights",
    "judge_record", "load_weights", "rubric_hash",
]
