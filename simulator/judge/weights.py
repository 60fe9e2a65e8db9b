"""S_final's weights: the paper's profile, its two robustness profiles, and a user's file.

Paper §5.2: hallucination 0.20, retrieval correctness 0.15, context sufficiency 0.10,
helpfulness 0.15, answer type fit 0.10, identifier integrity 0.10, case issue
identification 0.10, resolution alignment 0.10. §6: *uniform* (0.125 each) and
*retrieval-heavy* (retrieval correctness and context sufficiency 0.20 each, the other six
scaled proportionally so the eight sum to 1: each x 0.60 / 0.75 = x 0.8).

A weights file (``--weights FILE``, TOML or JSON) is one table of the eight names to
non-negative numbers summing to 1 within 1e-6; anything else is refused in one line that
names the file and the field.
"""

from __future__ import annotations

import json
import math
import tomllib
from pathlib import Path
from types import MappingProxyType
from typing import Any

from simulator.errors import UsageError
from simulator.judge.metrics import METRIC_NAMES, MetricName

SUM_TOLERANCE = 1e-6

PAPER: dict[MetricName, float] = {
    "hallucination": 0.20, "retrieval_correctness": 0.15, "context_sufficiency": 0.10,
    "answer_helpfulness": 0.15, "answer_type_fit": 0.10, "identifier_integrity": 0.10,
    "case_issue_identification": 0.10, "case_resolution_alignment": 0.10,
}
UNIFORM: dict[MetricName, float] = dict.fromkeys(METRIC_NAMES, 0.125)
_HEAVY = ("retrieval_correctness", "context_sufficiency")
_REST_SCALE = (1.0 - 0.20 * len(_HEAVY)) / sum(w for m, w in PAPER.items() if m not in _HEAVY)
RETRIEVAL_HEAVY: dict[MetricName, float] = {
    m: 0.20 if m in _HEAVY else round(w * _REST_SCALE, 12) for m, w in PAPER.items()}

PROFILES: MappingProxyType[str, dict[MetricName, float]] = MappingProxyType(
    {"paper": PAPER, "uniform": UNIFORM, "retrieval-heavy": RETRIEVAL_HEAVY})


def check_weights(raw: Any, where: str) -> dict[MetricName, float]:
    """Validate a mapping of the eight metric names to weights; ``where`` names its source."""
    if not isinstance(raw, dict):
        raise UsageError(f"{where}: weights must be a table of the eight metric names, "
                         f"got {type(raw).__name__}")
    unknown = sorted(set(raw) - set(METRIC_NAMES))
    if unknown:
        raise UsageError(f"{where}: {unknown[0]}: not a metric (the eight are "
                         f"{', '.join(METRIC_NAMES)})")
    missing = [m for m in METRIC_NAMES if m not in raw]
    if missing:
        raise UsageError(f"{where}: {missing[0]}: missing (give all eight metrics a weight; "
                         "0 leaves one out)")
    weights: dict[MetricName, float] = {}
    for name in METRIC_NAMES:
        value = raw[name]
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(
                value) or value < 0:
            raise UsageError(f"{where}: {name}: must be a non-negative number, got {value!r}")
        weights[name] = float(value)
    total = sum(weights.values())
    if abs(total - 1.0) > SUM_TOLERANCE:
        raise UsageError(f"{where}: the weights sum to {total:.6g}, not 1 (within "
                         f"{SUM_TOLERANCE:g})")
    return weights


def load_weights(spec: str) -> tuple[str, dict[MetricName, float]]:
    """``paper``, ``uniform``, ``retrieval-heavy`` or a TOML / JSON file: (name, weights)."""
    if spec in PROFILES:
        return spec, dict(PROFILES[spec])
    path = Path(spec)
    if not path.is_file():
        raise UsageError(f"--weights {spec}: neither a profile ({', '.join(PROFILES)}) nor "
                         "a file")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read the weights ({exc})") from None
    try:
        raw = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        kind = "JSON" if path.suffix.lower() == ".json" else "TOML"
        raise UsageError(f"{path}: not valid {kind} ({str(exc).splitlines()[0]})") from None
    return str(path), check_weights(raw, str(path))
