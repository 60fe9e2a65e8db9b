"""Paired differences between two conditions, with a hierarchical bootstrap interval.

"Repair minus strict" pairs each repair record with the strict record of the same provider,
model, scenario, arm and task row; "with policy minus without policy" pairs on the contract
mode instead of the arm. Both are :func:`paired_difference` with a different ``pair_on``.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict

from simulator.archive.row import ARCHIVE_FIELDS
from simulator.errors import UsageError
from simulator.judge.metrics import METRIC_NAMES
from simulator.scoring.outcome import DERIVED_FLAGS, OUTCOME_FLAGS
from simulator.stats.bootstrap import (
    BOOTSTRAP_KINDS,
    BootstrapKind,
    hierarchical_bootstrap,
    percentile_interval,
)
from simulator.stats.crossed import crossed_bootstrap

PAIR_ON_CONTRACT_MODE: tuple[str, ...] = ("provider", "model", "scenario", "arm", "task_row")
"""Pair repair with strict: everything equal except the contract mode."""

PAIR_ON_ARM: tuple[str, ...] = ("provider", "model", "scenario", "contract_mode", "task_row")
"""Pair one arm with another (e.g. with a policy vs without it): everything but the arm."""

MODEL_UNIT: tuple[str, ...] = ("provider", "model")
"""The outer bootstrap level: one provider-model pair."""

POLICY_UNIT: tuple[str, ...] = ("unit",)
"""The inner bootstrap level: a policy unit, clustering its question variants."""

_OUTCOMES = (*(f for f in OUTCOME_FLAGS if f in ARCHIVE_FIELDS), *DERIVED_FLAGS)
"""The outcomes a difference can be taken on: the boolean ones every archive row carries,
and those derived from a column (``disclosure_correct``, from ``behaviour``)."""


JUDGE_SCORES: tuple[str, ...] = (*(f"judge_{m}" for m in METRIC_NAMES), "judge_s_final")
"""Judge scores a difference can be taken on (rows from simulator.judge.rows): continuous,
in [0, 1]; a pair is left out where either side has no score (unjudged, not applicable)."""


class Effect(BaseModel):
    """A paired mean difference (a - b) with its 95 % percentile bootstrap interval."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    estimate: float
    """Mean of a - b over the pairs, as a proportion (0.913 = 91.3 points)."""
    low: float
    high: float
    pairs: int = 0
    """How many (a, b) pairs the estimate rests on; unpaired rows are left out."""
    model_units: int = 0
    """Distinct model units; with one, the model level of the bootstrap has one choice."""
    clusters: int = 0
    """Distinct (model unit, policy unit) clusters resampled at the inner level."""
    policy_units: int = 0
    """Distinct policy units; in a crossed design every model unit answers the same ones."""
    replicates: int = 0
    bootstrap: BootstrapKind = "nested"
    """How the interval resampled: ``nested`` (policy units within each model unit, the
    paper's) or ``crossed`` (model units and policy units independently)."""


def _key(row: Any, fields: Sequence[str]) -> tuple[Any, ...]:
    return tuple(getattr(row, f) for f in fields)


def _check_fields(rows: Sequence[Any], fields: Sequence[str], what: str) -> None:
    if not rows:
        return
    for name in fields:
        if not hasattr(rows[0], name):
            known = [f for f in type(rows[0]).model_fields] if hasattr(
                type(rows[0]), "model_fields") else []
            close = difflib.get_close_matches(name, known, n=1)
            hint = f" Did you mean: {close[0]}?" if close else ""
            raise UsageError(f"{what}: rows have no field {name!r}.{hint}")


def _index(rows: Sequence[Any], pair_on: Sequence[str], side: str) -> dict[tuple[Any, ...], Any]:
    index: dict[tuple[Any, ...], Any] = {}
    for row in rows:
        key = _key(row, pair_on)
        if key in index:
            shown = ", ".join(f"{f}={v}" for f, v in zip(pair_on, key, strict=True))
            raise UsageError(f"rows_{side} hold two rows for ({shown}): pair_on does not "
                             f"identify one row")
        index[key] = row
    return index


def paired_difference(
    rows_a: Sequence[Any],
    rows_b: Sequence[Any],
    *,
    pair_on: Sequence[str] = PAIR_ON_CONTRACT_MODE,
    metric: str = "S",
    unit_on: Sequence[str] = MODEL_UNIT,
    cluster_on: Sequence[str] = POLICY_UNIT,
    replicates: int = 2000,
    seed: int = 0,
    bootstrap: BootstrapKind = "nested",
) -> Effect:
    """Mean of ``metric(a) - metric(b)`` over matched pairs, with a hierarchical interval.

    Args:
        rows_a: the treated condition (e.g. repair-mode rows, or rows with a policy).
        rows_b: the reference condition (strict-mode rows, or rows without the policy).
            Rows are anything with the named attributes: ``ArchiveRow`` or ``RunRecord``.
        pair_on: fields that must be equal for two rows to pair; together they identify
            one row per side. Rows without a partner are left out (see ``Effect.pairs``).
        metric: a boolean outcome field (S, grounded, safe_resolution, ...), or a judge
            score (:data:`JUDGE_SCORES`) on rows that carry one.
        unit_on: fields naming the outer resampling unit (a provider-model pair).
        cluster_on: fields naming the inner cluster within a unit (the policy unit, so the
            three variants of a unit are drawn together).
        replicates: bootstrap replicates (2,000 in the paper).
        seed: the bootstrap seed.
        bootstrap: ``nested`` resamples ``cluster_on`` within each drawn unit (the paper's
            method); ``crossed`` resamples units and ``cluster_on`` values independently and
            keeps every cell of the drawn pairs, for designs where every unit answers the
            same policy units (see :mod:`simulator.stats.crossed`).

    Raises:
        UsageError: an unknown field, metric or bootstrap kind, duplicate rows for one pair
            key, or no pairs.
    """
    if bootstrap not in BOOTSTRAP_KINDS:
        close = difflib.get_close_matches(str(bootstrap), BOOTSTRAP_KINDS, n=1)
        hint = f" Did you mean: {close[0]}?" if close else ""
        raise UsageError(f"unknown bootstrap {bootstrap!r}.{hint} "
                         f"Known: {', '.join(BOOTSTRAP_KINDS)}.")
    if metric not in _OUTCOMES and metric not in JUDGE_SCORES:
        close = difflib.get_close_matches(metric, (*_OUTCOMES, *JUDGE_SCORES), n=1)
        hint = f" Did you mean: {close[0]}?" if close else ""
        raise UsageError(f"unknown metric {metric!r}.{hint} Known: {', '.join(_OUTCOMES)}, "
                         f"or a judge score ({', '.join(JUDGE_SCORES)}).")
    for rows, side in ((rows_a, "rows_a"), (rows_b, "rows_b")):
        _check_fields(rows, (*pair_on, *unit_on, *cluster_on), side)
    index_a, index_b = _index(rows_a, pair_on, "a"), _index(rows_b, pair_on, "b")
    keys = sorted((k for k in index_a if k in index_b), key=repr)
    if metric in JUDGE_SCORES:  # a score is None where unjudged or not applicable
        keys = [k for k in keys if getattr(index_a[k], metric) is not None
                and getattr(index_b[k], metric) is not None]
    if not keys:
        raise UsageError("no pairs: no row of rows_a matches a row of rows_b on "
                         f"({', '.join(pair_on)})" + (f" with {metric} scored on both sides"
                                                      if metric in JUDGE_SCORES else ""))
    diffs = np.array([float(getattr(index_a[k], metric)) - float(getattr(index_b[k], metric))
                      for k in keys], dtype=np.float64)
    units = [repr(_key(index_a[k], unit_on)) for k in keys]
    clusters = [repr((_key(index_a[k], unit_on), _key(index_a[k], cluster_on))) for k in keys]
    policy_units = [repr(_key(index_a[k], cluster_on)) for k in keys]
    if bootstrap == "crossed":
        draws = crossed_bootstrap(diffs, units, policy_units, replicates=replicates, seed=seed)
    else:
        draws = hierarchical_bootstrap(diffs, units, clusters, replicates=replicates, seed=seed)
    low, high = percentile_interval(draws)
    return Effect(estimate=float(diffs.mean()) + 0.0, low=low, high=high, pairs=len(keys),
                  model_units=len(set(units)), clusters=len(set(clusters)),
                  policy_units=len(set(policy_units)), replicates=replicates,
                  bootstrap=bootstrap)
