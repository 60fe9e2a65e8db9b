"""Human labels for calibration: one JSON object per line, in the LLM judge's own keys.

    {"key": "deterministic|stale_index|strict|uncontrolled|task_79aabbe72f47",
     "hallucination_score": 0.2, "retrieval_correctness_score": 0.1}

``key`` is the record's key as ``layerrag show RUN --json`` prints it; any subset of the
eight ``<metric>_score`` keys may be given (a number in [0, 1], or null for "does not
apply"); ``<metric>_justification`` keys and ``note`` are allowed and ignored. Anything else
is refused in one line naming the file, the line and the field.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from simulator.errors import UsageError
from simulator.judge.metrics import METRIC_NAMES
from simulator.judge.model import Judgment, MetricScore

HUMAN = "human"


def load_human_labels(path: Path, *, keys: set[str] | None = None) -> dict[str, Judgment]:
    """The labels in ``path`` as judgments of the judge ``human`` (the metrics a line does
    not score are not applicable there, so they enter no comparison)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"--human {path}: {exc.strerror or exc}") from None
    allowed = ({"key", "note"} | {f"{m}_score" for m in METRIC_NAMES}
               | {f"{m}_justification" for m in METRIC_NAMES})
    out: dict[str, Judgment] = {}
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}:{n}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UsageError(f"{where}: not JSON ({exc.msg})") from None
        if not isinstance(row, dict) or not isinstance(row.get("key"), str):
            raise UsageError(f"{where}: key: each line is an object with a record \"key\"")
        unknown = sorted(set(row) - allowed)
        if unknown:
            raise UsageError(f"{where}: {unknown[0]}: not a field of a human label (the "
                             "eight <metric>_score keys, key, note)")
        key = row["key"]
        if keys is not None and key not in keys:
            raise UsageError(f"{where}: key {key!r}: no such record in the run")
        if key in out:
            raise UsageError(f"{where}: key {key!r}: labelled twice")
        scores: dict[str, MetricScore] = {}
        for m in METRIC_NAMES:
            value = row.get(f"{m}_score")
            if value is None:
                scores[m] = MetricScore.not_applicable("not labelled")
                continue
            if isinstance(value, bool) or not isinstance(value, int | float) or not (
                    math.isfinite(value) and 0 <= value <= 1):
                raise UsageError(f"{where}: {m}_score {value!r}: a score is a number in "
                                 "[0, 1] or null")
            scores[m] = MetricScore.scored(float(value), "human label")
        if all(s.value is None for s in scores.values()):
            raise UsageError(f"{where}: no <metric>_score given")
        out[key] = Judgment(key=key, judge=HUMAN, rubric_hash="human", status="judged",
                            scores=scores)  # type: ignore[arg-type]
    if not out:
        raise UsageError(f"--human {path}: no labels in the file")
    return out
