"""The distribution of ConInstruct behaviour labels, with hierarchical bootstrap intervals.

Each group is one (arm, provider, model, scenario, contract mode) cell; the share of each
label is a rate over the cell's labelled records, with the same two-level bootstrap as every
other rate (model units, then policy units within each: simulator/stats/bootstrap.py), so the
three question variants of a policy count as one cluster. ``resolved_current`` counts the B3
records whose answer is the current value (E): a conflict resolved the right way.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict

from simulator.stats.bootstrap import hierarchical_bootstrap, percentile_interval
from simulator.stats.layers import ordered_modes, ordered_scenarios
from simulator.vocabulary import BEHAVIOURS


class LabelShare(BaseModel):
    """One label's share of a cell, with its 95 % interval."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    label: str
    count: int
    estimate: float
    low: float
    high: float


class BehaviourCell(BaseModel):
    """The label distribution of one (arm, model, scenario, mode) cell."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    arm: str
    provider: str
    model: str
    scenario: str
    contract_mode: str
    labelled: int
    """Records with a label (provider and reader errors have none)."""
    shares: list[LabelShare]
    """One per label B1..B6, in order."""
    resolved_current: int
    """B3 records whose answer is the current value."""
    model_units: int
    policy_units: int

    def share(self, label: str) -> LabelShare:
        return next(s for s in self.shares if s.label == label)


def _share(label: str, rows: Sequence[Any], replicates: int, seed: int) -> LabelShare:
    values = np.array([r.behaviour == label for r in rows], dtype=np.float64)
    count = int(values.sum())
    if count in (0, len(rows)):  # every replicate is the same proportion
        fixed = count / len(rows)
        return LabelShare(label=label, count=count, estimate=fixed, low=fixed, high=fixed)
    units = [repr((r.provider, r.model)) for r in rows]
    clusters = [repr((r.provider, r.model, r.unit)) for r in rows]
    low, high = percentile_interval(hierarchical_bootstrap(values, units, clusters,
                                                           replicates=replicates, seed=seed))
    return LabelShare(label=label, count=count, estimate=float(values.mean()), low=low,
                      high=high)


def behaviour_cells(rows: Sequence[Any], *, replicates: int = 2000, seed: int = 0
                    ) -> list[BehaviourCell]:
    """The label distribution of every cell of ``rows`` that has labelled records, in report
    order (arm, provider, model, scenario table order, contract mode)."""
    groups: dict[tuple[str, str, str, str, str], list[Any]] = defaultdict(list)
    for row in rows:
        if getattr(row, "behaviour", None) is not None:
            groups[(row.arm, row.provider, row.model, row.scenario, row.contract_mode)].append(row)
    scenario_rank = {s: i for i, s in enumerate(ordered_scenarios(k[3] for k in groups))}
    mode_rank = {m: i for i, m in enumerate(ordered_modes(k[4] for k in groups))}
    cells = []
    for key in sorted(groups, key=lambda k: (k[0], k[1], k[2], scenario_rank[k[3]],
                                             mode_rank[k[4]])):
        cell = groups[key]
        cells.append(BehaviourCell(
            arm=key[0], provider=key[1], model=key[2], scenario=key[3], contract_mode=key[4],
            labelled=len(cell), shares=[_share(b, cell, replicates, seed) for b in BEHAVIOURS],
            resolved_current=sum(1 for r in cell if r.behaviour == "B3" and r.E),
            model_units=1, policy_units=len({r.unit for r in cell})))
    return cells
