"""Misleading rate (RAG-Stress), conditioned on the clean twin, with hierarchical intervals.

MR asks how often misleading evidence *replaces* an answer the system had right, so its
denominator is not every misleading record. A record counts when

- its task has a designated incorrect value (``misled`` is set), and
- its **clean twin** (the clean-scenario record of the same run, so the same seed and source
  priority, and the same provider, model, agent, arm, contract mode and task) was a strict
  success.

This is RAG-Stress's conditioning on items answered correctly without the edit: a record
the system got wrong on clean evidence cannot be misled by the edit, and counting it would
mix answer replacement with errors that were there before. MR is the share of counted
records whose answer is the designated value. Intervals resample model units, then policy
units within each (:func:`~simulator.stats.bootstrap.hierarchical_bootstrap`), as every
other interval of the report does.

Two paired contrasts:

- **end - middle** (and any position pair): the same counted task under the same run, at two
  positions; the edit and the foil are the same, only where the span sits differs;
- **strict - soft**: the same task, position, arm and model under two runs that differ in
  their source-priority instruction; a pair counts when the record is counted under both
  (the common cohort), so the contrast is not a difference of two denominators.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict

from simulator.stats.bootstrap import hierarchical_bootstrap, percentile_interval
from simulator.vocabulary import CONTRACT_MODES, MISLEADING_SCENARIOS

POSITION_OF: dict[str, str] = {s.name: s.name.removeprefix("misleading_")
                               for s in MISLEADING_SCENARIOS}
"""Scenario name -> the Word Position it places the edited span at."""
POSITIONS: tuple[str, ...] = tuple(POSITION_OF.values())

_TWIN = ("run_id", "provider", "model", "agent", "arm", "contract_mode", "task_row")
"""What a misleading record and its clean twin share."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Interval(_Frozen):
    """A rate or a paired difference, with its 95 % hierarchical percentile interval."""

    estimate: float
    low: float
    high: float
    n: int
    """Counted records (a rate) or pairs (a contrast)."""
    model_units: int
    policy_units: int


class MisleadingRate(_Frozen):
    """MR of one arm, contract mode, source priority and position."""

    arm: str
    contract_mode: str
    source_priority: str | None
    position: str
    misled: int
    eligible: int
    """Records whose clean twin was a strict success (the denominator)."""
    outside: int
    """Misleading records left out: no designated value, no clean twin, or a failed one."""
    rate: Interval | None
    """None when nothing is eligible."""


class MisleadingContrast(_Frozen):
    """A paired MR difference: ``first`` minus ``second``."""

    arm: str
    contract_mode: str
    kind: str
    """``position`` (under one instruction) or ``instruction`` (at one position, or
    ``all`` positions pooled)."""
    within: str
    """The instruction (a position contrast) or the position (an instruction contrast)."""
    first: str
    second: str
    effect: Interval


def _get(row: Any, name: str) -> Any:
    return getattr(row, name, None)


def eligible_rows(rows: Sequence[Any]) -> tuple[list[Any], int]:
    """The misleading records MR counts, and how many misleading records it leaves out."""
    twins = {tuple(_get(r, f) for f in _TWIN): bool(r.S) for r in rows if r.scenario == "clean"}
    counted, outside = [], 0
    for row in rows:
        if row.scenario not in POSITION_OF:
            continue
        if _get(row, "misled") is not None and twins.get(tuple(_get(row, f) for f in _TWIN)):
            counted.append(row)
        else:
            outside += 1
    return counted, outside


def _interval(values: Sequence[float], rows: Sequence[Any], *, replicates: int,
              seed: int) -> Interval:
    units = [repr((r.provider, r.model)) for r in rows]
    clusters = [repr((r.provider, r.model, r.unit)) for r in rows]
    draws = hierarchical_bootstrap(np.asarray(values, dtype=np.float64), units, clusters,
                                   replicates=replicates, seed=seed)
    low, high = percentile_interval(draws)
    return Interval(estimate=float(np.mean(values)) + 0.0, low=low, high=high, n=len(values),
                    model_units=len(set(units)), policy_units=len({r.unit for r in rows}))


def _mode_rank(mode: str) -> tuple[int, str]:
    return (CONTRACT_MODES.index(mode) if mode in CONTRACT_MODES else len(CONTRACT_MODES), mode)


def _priority_key(value: str | None) -> tuple[int, str]:
    order = {"strict": 0, "soft": 1}
    return (order.get(value or "", 2), value or "")


def misleading_rates(rows: Sequence[Any], *, replicates: int = 2000, seed: int = 0
                     ) -> list[MisleadingRate]:
    """MR per arm, contract mode, source priority and position (positions in table order)."""
    counted, _ = eligible_rows(rows)
    groups: dict[tuple[str, str, str | None, str], list[Any]] = defaultdict(list)
    for row in counted:
        groups[(row.arm, row.contract_mode, _get(row, "source_priority"),
                POSITION_OF[row.scenario])].append(row)
    totals: dict[tuple[str, str, str | None, str], int] = defaultdict(int)
    for row in rows:
        if row.scenario in POSITION_OF:
            totals[(row.arm, row.contract_mode, _get(row, "source_priority"),
                    POSITION_OF[row.scenario])] += 1
    out = []
    for key in sorted(totals, key=lambda k: (k[0], _mode_rank(k[1]), _priority_key(k[2]),
                                             POSITIONS.index(k[3]))):
        chosen = groups.get(key, [])
        values = [float(bool(r.misled)) for r in chosen]
        out.append(MisleadingRate(
            arm=key[0], contract_mode=key[1], source_priority=key[2], position=key[3],
            misled=int(sum(values)), eligible=len(chosen), outside=totals[key] - len(chosen),
            rate=_interval(values, chosen, replicates=replicates, seed=seed) if chosen
            else None))
    return out


def _paired(a: Iterable[Any], b: Iterable[Any], on: Sequence[str], *, replicates: int,
            seed: int) -> Interval | None:
    index_b = {tuple(_get(r, f) for f in on): r for r in b}
    pairs = [(r, index_b[k]) for r in a if (k := tuple(_get(r, f) for f in on)) in index_b]
    if not pairs:
        return None
    diffs = [float(bool(x.misled)) - float(bool(y.misled)) for x, y in pairs]
    return _interval(diffs, [x for x, _ in pairs], replicates=replicates, seed=seed)


def misleading_contrasts(rows: Sequence[Any], *, replicates: int = 2000, seed: int = 0
                         ) -> list[MisleadingContrast]:
    """end - middle, beginning - middle and beginning - end under each instruction, and
    strict - soft at each position and pooled, per arm and contract mode (paired)."""
    counted, _ = eligible_rows(rows)
    by: dict[tuple[str, str], list[Any]] = defaultdict(list)
    for row in counted:
        by[(row.arm, row.contract_mode)].append(row)
    out: list[MisleadingContrast] = []
    same_run = ("run_id", "provider", "model", "agent", "task_row")
    same_task = ("provider", "model", "agent", "scenario", "task_row")
    for (arm, mode), group in sorted(by.items(), key=lambda i: (i[0][0], _mode_rank(i[0][1]))):
        priorities = sorted({_get(r, "source_priority") for r in group}, key=_priority_key)
        for priority in priorities:
            mine = [r for r in group if _get(r, "source_priority") == priority]
            at = {p: [r for r in mine if POSITION_OF[r.scenario] == p] for p in POSITIONS}
            for first, second in (("end", "middle"), ("beginning", "middle"),
                                  ("beginning", "end")):
                effect = _paired(at[first], at[second], same_run, replicates=replicates,
                                 seed=seed)
                if effect is not None:
                    out.append(MisleadingContrast(
                        arm=arm, contract_mode=mode, kind="position",
                        within=priority or "none", first=first, second=second,
                        effect=effect))
        strict = [r for r in group if _get(r, "source_priority") == "strict"]
        soft = [r for r in group if _get(r, "source_priority") == "soft"]
        for position in (*POSITIONS, "all"):
            a = [r for r in strict if position in ("all", POSITION_OF[r.scenario])]
            b = [r for r in soft if position in ("all", POSITION_OF[r.scenario])]
            effect = _paired(a, b, same_task, replicates=replicates, seed=seed)
            if effect is not None:
                out.append(MisleadingContrast(
                    arm=arm, contract_mode=mode, kind="instruction", within=position,
                    first="strict", second="soft", effect=effect))
    return out
