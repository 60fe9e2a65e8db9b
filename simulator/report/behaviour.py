"""The conflict-behaviour part of a report: ConInstruct labels per arm, model, scenario and
mode (docs/evidence.md).

Shares are of the cell's labelled records, in points, with 95 % hierarchical bootstrap
intervals (:mod:`simulator.stats.behaviour`). The concise report shows the cells where a
conflict was met or claimed (any label but B5) and the clean cells they are read against;
``--full`` shows every cell.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from simulator.report.formatting import interval, markdown_table, points
from simulator.stats.behaviour import BehaviourCell, LabelShare, behaviour_cells
from simulator.vocabulary import BEHAVIOURS


class BehaviourSection(BaseModel):
    """The label distribution of every cell with labelled records."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    cells: list[BehaviourCell]


def behaviour_section(rows: Sequence[Any], *, replicates: int, seed: int
                      ) -> BehaviourSection | None:
    """The section of ``rows``, or None when no row carries a label (older archives)."""
    cells = behaviour_cells(rows, replicates=replicates, seed=seed)
    return BehaviourSection(cells=cells) if cells else None


def _share(share: LabelShare) -> str:
    if share.count == 0:
        return "·"
    text = points(share.estimate, signed=False)
    return text if share.low == share.high else f"{text} {interval(share.low, share.high)}"


def _notable(cell: BehaviourCell) -> bool:
    return cell.scenario == "clean" or cell.share("B5").count < cell.labelled


def _distribution(cell: BehaviourCell) -> str:
    """``B3 98.8 [97.1, 100.0], B2 1.2 [0.0, 2.9]``: the labels present, largest first."""
    shares = sorted((s for s in cell.shares if s.count), key=lambda s: -s.count)
    return ", ".join(f"{s.label} {_share(s)}" for s in shares)


def _summary(cells: list[BehaviourCell]) -> list[str]:
    """One line per arm and model: each notable scenario's distribution, modes merged when
    they agree."""
    lines = []
    groups: dict[tuple[str, str], dict[str, dict[str, str]]] = {}
    for c in cells:
        groups.setdefault((c.arm, c.model), {}).setdefault(c.scenario, {})[c.contract_mode] = \
            _distribution(c)
    for (arm, model), scenarios in groups.items():
        parts = []
        for scenario, by_mode in scenarios.items():
            if len(set(by_mode.values())) == 1:
                parts.append(f"{scenario} {next(iter(by_mode.values()))}")
            else:
                parts += [f"{scenario}/{mode} {d}" for mode, d in by_mode.items()]
        lines.append(f"- `{arm}` · {model}: " + "; ".join(parts))
    return lines


def render_behaviour(section: BehaviourSection | None, *, full: bool) -> list[str]:
    """Markdown lines of the section; nothing without one. The concise form is one line per
    arm and model (the scenarios where a conflict was met or claimed, and clean); the full
    form the table of every cell."""
    if section is None:
        return []
    cells = [c for c in section.cells if full or _notable(c)]
    if not cells:
        return []
    head = ["## Conflict behaviour (ConInstruct labels)", "",
            "Share of labelled records, in points, with 95 % hierarchical bootstrap intervals. "
            "Where the evidence holds a conflict: B1 unacknowledged, B2 acknowledged + "
            "clarification / safe non-answer, B3 acknowledged + resolved, B4 other; where it "
            "does not: B5 no conflict claimed, B6 false alarm (docs/evidence.md)."]
    if not full:
        return [*head, "", *_summary(cells), "",
                "Scenarios where a conflict was met or claimed, and clean; `--full`: every "
                "cell, with `B3→current`.", ""]
    rows = [[c.arm, c.model, c.scenario, c.contract_mode, str(c.labelled),
             *(_share(c.share(b)) for b in BEHAVIOURS), str(c.resolved_current)]
            for c in cells]
    return [*head[:-1], head[-1] + " · none; `B3→current`: B3 records answered with the "
            "current value.", "",
            *markdown_table(["arm", "model", "scenario", "mode", "labelled", *BEHAVIOURS,
                             "B3→current"], rows, "llllr" + "r" * (len(BEHAVIOURS) + 1))]
