"""What a run is expected to hold, and whether it holds it: a partial run never passes as whole.

A run's manifest records, when it is made, how many records each cell (model x scenario x
contract mode x arm) should get: the tasks it selects. ``report``, ``archive export`` and
``archive recompute`` compare the rows they read with it, and a run killed at 520 of 4,320
records, or stopped by its budget, says so in one line: ``incomplete: 520 of 4320 records;
cells missing: ...``, exiting with :data:`EXIT_INCOMPLETE` unless ``--allow-partial``.
Runs and archives made before the manifest recorded it are read as before, with a note that
their completeness is unknown.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

EXIT_INCOMPLETE = 6
"""A report, export or recompute of a run missing records (without ``--allow-partial``)."""

Cell = tuple[str, str, str, str]
"""model, scenario, contract mode, arm."""


class ExpectedRecords(BaseModel):
    """The records a run is made to hold: ``tasks_per_cell`` in each of ``cells``."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    tasks_per_cell: int = Field(ge=1)
    cells: list[Annotated[list[str], Field(min_length=4, max_length=4)]]
    """[model, scenario, contract mode, arm], in the run's axis order (JSON lists, so an
    archive header reads them strictly)."""

    @property
    def keys(self) -> list[Cell]:
        return [(c[0], c[1], c[2], c[3]) for c in self.cells]

    @property
    def total(self) -> int:
        return self.tasks_per_cell * len(self.cells)


class _Row(Protocol):
    model: str
    scenario: str
    contract_mode: str
    arm: str


def expected_records(models: Iterable[str], scenarios: Iterable[str], modes: Iterable[str],
                     arms: Iterable[str], tasks_per_cell: int) -> ExpectedRecords:
    """Every cell of the axes, each with ``tasks_per_cell`` records."""
    modes, arms, scenarios = list(modes), list(arms), list(scenarios)
    return ExpectedRecords(tasks_per_cell=tasks_per_cell,
                           cells=[[m, s, c, a] for m in models for s in scenarios
                                  for c in modes for a in arms])


def expected_of(manifest: Mapping[str, Any] | None) -> ExpectedRecords | None:
    """What the manifest says the run should hold (None: a run made before it said)."""
    raw = (manifest or {}).get("expected_records")
    if raw is None:
        return None
    try:
        return ExpectedRecords.model_validate(raw)
    except ValidationError:
        return None


def cell_of(row: _Row) -> Cell:
    return (row.model, row.scenario, row.contract_mode, row.arm)


def incompleteness(expected: ExpectedRecords, rows: Iterable[_Row], *,
                   shown: int = 4) -> str | None:
    """``incomplete: N of M records; cells missing: ...`` (one line), or None when whole.

    A cell is named with how many of its records are there; the first ``shown`` are named,
    the rest counted."""
    counts = Counter(cell_of(r) for r in rows)
    present = sum(min(counts[c], expected.tasks_per_cell) for c in expected.keys)
    if present >= expected.total:
        return None
    short = [(c, counts[c]) for c in expected.keys if counts[c] < expected.tasks_per_cell]
    named = ", ".join(f"{'/'.join(c)} ({n} of {expected.tasks_per_cell})"
                      for c, n in short[:shown])
    more = f" and {len(short) - shown} more" if len(short) > shown else ""
    return (f"incomplete: {present} of {expected.total} records; cells missing: "
            f"{named}{more}")


def unexpected_cell(expected: ExpectedRecords, rows: Iterable[_Row]) -> str | None:
    """The first row outside the run's cells (another scenario, arm, mode or model), or a
    cell holding more rows than its tasks: what an archive never holds unedited."""
    wanted = set(expected.keys)
    counts: Counter[Cell] = Counter()
    for row in rows:
        cell = cell_of(row)
        if cell not in wanted:
            return (f"a row of cell {'/'.join(cell)}, which is not a cell of this run "
                    f"(scenario {row.scenario!r}, arm {row.arm!r}, mode "
                    f"{row.contract_mode!r}, model {row.model!r})")
        counts[cell] += 1
        if counts[cell] > expected.tasks_per_cell:
            return (f"cell {'/'.join(cell)} holds more than its {expected.tasks_per_cell} "
                    "records: rows were added")
    return None
