"""The conflict-behaviour section: label shares per cell with bootstrap intervals."""

from __future__ import annotations

from dataclasses import dataclass

from simulator.report.behaviour import behaviour_section, render_behaviour
from simulator.vocabulary import BEHAVIOURS


@dataclass(frozen=True)
class Row:
    scenario: str
    task_row: int
    behaviour: str | None
    E: bool = True
    arm: str = "uncontrolled"
    provider: str = "local"
    model: str = "deterministic"
    contract_mode: str = "strict"

    @property
    def unit(self) -> int:
        return self.task_row // 3


def rows() -> list[Row]:
    out = [Row("clean", i, "B5") for i in range(60)]
    out += [Row("conflicting_evidence", i, "B3" if i % 4 else "B1", E=i % 8 != 1)
            for i in range(60)]
    out += [Row("stale_index", i, "B5") for i in range(60)]
    out += [Row("missing_tool_output", i, None) for i in range(60)]  # unlabelled: left out
    return out


def test_shares_of_a_cell_add_up_and_their_intervals_hold_the_estimate() -> None:
    section = behaviour_section(rows(), replicates=200, seed=0)
    assert section is not None
    cell = next(c for c in section.cells if c.scenario == "conflicting_evidence")
    assert [s.label for s in cell.shares] == list(BEHAVIOURS) and cell.labelled == 60
    assert abs(sum(s.estimate for s in cell.shares) - 1.0) < 1e-9
    b3 = cell.share("B3")
    assert b3.count == 45 and b3.low <= b3.estimate <= b3.high and b3.low < b3.high
    assert cell.resolved_current == 45 - sum(1 for i in range(60) if i % 4 and i % 8 == 1)
    assert {c.scenario for c in section.cells} == {"clean", "conflicting_evidence",
                                                   "stale_index"}


def test_the_concise_table_keeps_conflict_cells_and_clean_and_full_keeps_every_cell() -> None:
    section = behaviour_section(rows(), replicates=200, seed=0)
    concise = "\n".join(render_behaviour(section, full=False))
    full = "\n".join(render_behaviour(section, full=True))
    assert "conflicting_evidence B3 75.0" in concise and "clean B5 100.0" in concise
    assert "stale_index" not in concise and "| stale_index |" in full


def test_rows_without_labels_give_no_section() -> None:
    assert behaviour_section([Row("clean", 0, None)], replicates=10, seed=0) is None
    assert render_behaviour(None, full=True) == []
