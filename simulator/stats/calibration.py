"""How far one judge agrees with another, metric by metric (issue 30, item 5).

Per metric, over the records both judges scored (judged, and the metric applicable on both
sides): Spearman's rho on the scores (scipy), Cohen's kappa on the severity bands
(scikit-learn), the mean absolute difference, and the band confusion table. S_final is
compared the same way (the paper's Table 6 reports Spearman rho on it). A statistic that is
undefined (fewer than two pairs, or one side constant) is None with the reason, never a 0.

The probes (evidence order reversed; the answer padded with true, irrelevant text) are
the mean change of each metric under the probe against the unprobed judgment of the same
judge, with how many records changed band. Weight robustness orders the cells by mean
S_final under each profile and reports Kendall's tau against the paper's order and the
largest shift of a cell's mean.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict

from simulator.judge.metrics import BANDS, METRIC_NAMES, MetricName, band_of
from simulator.judge.model import Judgment


class Agreement(BaseModel):
    """Two judges on one metric (or S_final)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    metric: str
    pairs: int
    spearman: float | None
    kappa: float | None
    mad: float | None
    note: str | None = None
    """Why a statistic is missing."""
    confusion: dict[str, dict[str, int]]
    """Reference band -> other judge's band -> count."""


class ProbeEffect(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    probe: str
    metric: str
    pairs: int
    mean_shift: float | None
    """Mean of (probed - unprobed); None without pairs."""
    band_changes: int


class ProfileOrder(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    judge: str
    profile: str
    order: list[str]
    """Cells, best mean S_final first."""
    kendall_tau: float | None
    """Against the paper profile's order (None for the paper profile itself)."""
    max_shift: float
    """Largest |cell mean under this profile - under the paper's|."""


def _stats(xs: Sequence[float], ys: Sequence[float]) -> tuple[float | None, float | None,
                                                              float | None, str | None]:
    from scipy.stats import spearmanr
    from sklearn.metrics import cohen_kappa_score

    if not xs:
        return None, None, None, "no record scored by both"
    mad = sum(abs(x - y) for x, y in zip(xs, ys, strict=True)) / len(xs)
    notes = []
    rho: float | None = None
    if len(xs) < 2 or len(set(xs)) < 2 or len(set(ys)) < 2:
        notes.append("rho undefined: one side is constant")
    else:
        rho = float(spearmanr(xs, ys).statistic)
        rho = None if math.isnan(rho) else rho
    bx, by = [band_of(x) for x in xs], [band_of(y) for y in ys]
    kappa: float | None = None
    if len(set(bx) | set(by)) < 2:
        notes.append("kappa undefined: every band is the same")
    else:
        kappa = float(cohen_kappa_score(bx, by, labels=list(BANDS)))
        kappa = None if math.isnan(kappa) else kappa
    return rho, kappa, mad, "; ".join(notes) or None


def _confusion(xs: Sequence[float], ys: Sequence[float]) -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = {b: dict.fromkeys(BANDS, 0) for b in BANDS}
    for x, y in zip(xs, ys, strict=True):
        table[band_of(x)][band_of(y)] += 1
    return table


def agreement(reference: Mapping[str, Judgment], other: Mapping[str, Judgment],
              weights: Mapping[MetricName, float]) -> list[Agreement]:
    """Per metric and S_final, over the keys both judged."""
    keys = sorted(k for k in reference.keys() & other.keys()
                  if reference[k].status == "judged" and other[k].status == "judged")
    out: list[Agreement] = []
    for metric in (*METRIC_NAMES, "s_final"):
        xs: list[float] = []
        ys: list[float] = []
        for k in keys:
            if metric == "s_final":
                x, y = reference[k].s_final(weights), other[k].s_final(weights)
            else:
                x, y = reference[k].value(metric), other[k].value(metric)  # type: ignore[arg-type]
            if x is not None and y is not None:
                xs.append(x)
                ys.append(y)
        rho, kappa, mad, note = _stats(xs, ys)
        out.append(Agreement(metric=metric, pairs=len(xs), spearman=rho, kappa=kappa,
                             mad=mad, note=note, confusion=_confusion(xs, ys)))
    return out


def probe_effects(base: Mapping[str, Judgment], probed: Mapping[str, Mapping[str, Judgment]]
                  ) -> list[ProbeEffect]:
    """Per probe and metric: the mean shift and band changes against ``base``."""
    out: list[ProbeEffect] = []
    for probe, judged in probed.items():
        for metric in METRIC_NAMES:
            shifts: list[float] = []
            changed = 0
            for key, after in judged.items():
                before = base.get(key)
                if before is None or before.status != "judged" or after.status != "judged":
                    continue
                x, y = before.value(metric), after.value(metric)
                if x is None or y is None:
                    continue
                shifts.append(y - x)
                changed += band_of(x) != band_of(y)
            out.append(ProbeEffect(probe=probe, metric=metric, pairs=len(shifts),
                                   mean_shift=sum(shifts) / len(shifts) if shifts else None,
                                   band_changes=changed))
    return out


def profile_orders(judge: str, judgments: Mapping[str, Judgment], cell_of: Mapping[str, str],
                   profiles: Mapping[str, Mapping[MetricName, float]]) -> list[ProfileOrder]:
    """Cells ordered by mean S_final under each profile, against the first profile."""
    from scipy.stats import kendalltau

    means: dict[str, dict[str, float]] = {}
    for name, weights in profiles.items():
        sums: dict[str, list[float]] = defaultdict(list)
        for key, j in judgments.items():
            value = j.s_final(weights)
            if value is not None and key in cell_of:
                sums[cell_of[key]].append(value)
        means[name] = {c: sum(v) / len(v) for c, v in sums.items()}
    first = next(iter(profiles))
    out: list[ProfileOrder] = []
    for name in profiles:
        cells = sorted(means[name], key=lambda c: (-means[name][c], c))
        common = sorted(means[name].keys() & means[first].keys())
        tau: float | None = None
        if name != first and len(common) >= 2:
            value = float(kendalltau([means[first][c] for c in common],
                                     [means[name][c] for c in common]).statistic)
            tau = None if math.isnan(value) else value
        shift = max((abs(means[name][c] - means[first][c]) for c in common), default=0.0)
        out.append(ProfileOrder(judge=judge, profile=name, order=cells, kendall_tau=tau,
                                max_shift=shift))
    return out
