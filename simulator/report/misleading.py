"""The misleading-evidence part of a report: MR by position and instruction, and the paired
contrasts (docs/misleading.md).

It appears only when the rows hold ``misleading_*`` scenarios or were run with a
source-priority instruction (then it says which, so a report always shows what its reader
was told); its numbers come from :mod:`simulator.stats.misleading`, and it is rendered
once, after the arms.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from simulator.report.formatting import interval, markdown_table, points
from simulator.stats.misleading import (
    POSITION_OF,
    POSITIONS,
    MisleadingContrast,
    MisleadingRate,
    misleading_contrasts,
    misleading_rates,
)


class MisleadingSection(BaseModel):
    """MR per arm, mode, instruction and position, and the paired contrasts."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    instructions: dict[str, int] = {}
    """Records per source-priority instruction (``none`` for records given none)."""
    rates: list[MisleadingRate]
    contrasts: list[MisleadingContrast]


def misleading_section(rows: Sequence[Any], *, replicates: int, seed: int
                       ) -> MisleadingSection | None:
    """The section of ``rows``, or None when they hold no misleading scenario and no
    source-priority instruction."""
    given = Counter(getattr(r, "source_priority", None) or "none" for r in rows)
    if not any(r.scenario in POSITION_OF for r in rows) and set(given) <= {"none"}:
        return None
    return MisleadingSection(instructions=dict(sorted(given.items())),
                             rates=misleading_rates(rows, replicates=replicates, seed=seed),
                             contrasts=misleading_contrasts(rows, replicates=replicates,
                                                            seed=seed))


def _rate(rates: dict[str, MisleadingRate], position: str) -> str:
    found = rates.get(position)
    if found is None or found.rate is None:
        return "—"
    r = found.rate
    return (f"{points(r.estimate, signed=False)} {interval(r.low, r.high)} "
            f"({found.misled}/{found.eligible})")


def render_misleading(section: MisleadingSection | None) -> list[str]:
    """Markdown lines of the section; nothing without one."""
    if section is None:
        return []
    told = "; ".join(f"{name} ({count} records)" for name, count in section.instructions.items())
    if not section.rates:
        return ["## Source-priority instruction", "", f"Records per instruction: {told}.", ""]
    groups: dict[tuple[str, str, str], dict[str, MisleadingRate]] = {}
    for r in section.rates:
        groups.setdefault((r.arm, r.contract_mode, r.source_priority or "none"),
                          {})[r.position] = r
    rows = [[arm, mode, priority, *(_rate(by, p) for p in POSITIONS),
             str(sum(x.outside for x in by.values()))]
            for (arm, mode, priority), by in groups.items()]
    lines = ["## Misleading evidence (RAG-Stress)", "",
             "MR: share of answers that are the designated incorrect value, in points, over "
             "the records whose clean twin (same run, model, arm, mode and task) was a strict "
             "success; 95 % hierarchical bootstrap intervals, (misled/eligible). Left out (over "
             "the three positions): records without a designated value or a successful "
             f"clean twin. Records per instruction: {told}.", "",
             *markdown_table(["arm", "mode", "instruction", *POSITIONS, "left out"], rows,
                             "lll" + "r" * (len(POSITIONS) + 1))]
    if section.contrasts:
        crows = [[c.arm, c.contract_mode, c.within, f"{c.first} − {c.second}",
                  points(c.effect.estimate), interval(c.effect.low, c.effect.high),
                  str(c.effect.n)] for c in section.contrasts]
        lines += ["Paired MR contrasts (points): positions under one instruction pair the "
                  "same task in the same run; strict − soft pairs the same task, position, "
                  "arm and model across two runs, counted under both.", "",
                  *markdown_table(["arm", "mode", "within", "contrast", "Δ MR", "95 % CI",
                                   "pairs"], crows, "llllrrr")]
    return lines
