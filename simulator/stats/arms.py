"""Arms side by side: strict success and safe resolution per arm x scenario, and interventions.

An *incorrect intervention* is a record where an arm with controls gave a structured
non-answer on an answerable record that the uncontrolled arm answered strictly correctly,
paired by provider, model, scenario, contract mode and task row. "Answerable" is the
scorer's rule (:func:`simulator.scoring.metrics.answerable`); for a non-answer it is exactly
"not a safe resolution", so the count works on run records and archive rows alike.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from simulator.errors import UsageError
from simulator.scoring.outcome import errored
from simulator.stats import ordered_modes, ordered_scenarios

PAIR_KEY = ("provider", "model", "scenario", "contract_mode", "task_row")


class Intervention(BaseModel):
    """One incorrect intervention: which arm, which cell."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    arm: str
    provider: str
    model: str
    scenario: str
    contract_mode: str
    task_row: int


class ArmCell(BaseModel):
    """One arm x scenario x contract mode: counts, never silent rates."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    arm: str
    scenario: str
    contract_mode: str
    records: int
    successes: int
    safe_resolutions: int
    answerable: int
    """Records whose intact required evidence reached the agent (before any gate)."""
    answerable_successes: int
    unsafe_safe: int
    """Safe resolutions (structured non-answers) among the records that were not answerable."""
    abstentions: int
    wrong_answers: int
    """Answers (not non-answers) that were not strictly correct."""
    incorrect_interventions: int
    provider_errors: int
    """Failed calls: counted here only, never as safe, answered or abstained."""
    agent_errors: int
    """A broken agent under test: counted here only, never as safe, answered or abstained."""
    reader_errors: int
    """Unparseable output: counted here only, never as safe, answered or abstained."""


def _key(row: Any) -> tuple[Any, ...]:
    return tuple(getattr(row, f) for f in PAIR_KEY)


def abstained_on_answerable(row: Any) -> bool:
    """A non-answer on an answerable record: exact from ``abstained`` and ``safe_resolution``.

    A non-answer is a safe resolution exactly when the record was not answerable, so this
    needs no ``answerable`` field and works on archive rows too.
    """
    return bool(row.abstained) and not row.safe_resolution and not errored(row)


def incorrect_interventions(rows: Iterable[Any], *, baseline: str = "uncontrolled"
                            ) -> list[Intervention]:
    """Every record where a controlled arm abstained on an answerable record the baseline
    arm answered strictly correctly (see the module docstring)."""
    rows = list(rows)
    reference = {_key(r): r for r in rows if r.arm == baseline}
    found = []
    for row in rows:
        if row.arm == baseline:
            continue
        base = reference.get(_key(row))
        if base is not None and base.S and abstained_on_answerable(row):
            found.append(Intervention(arm=row.arm, **{f: getattr(row, f) for f in PAIR_KEY}))
    return sorted(found, key=lambda i: (i.arm, *(getattr(i, f) for f in PAIR_KEY)))


def arm_table(rows: Sequence[Any], *, baseline: str = "uncontrolled") -> list[ArmCell]:
    """Per arm x scenario x mode counts; the baseline first, scenarios in paper order.

    Rows must carry ``answerable`` (run records do; archive rows do not hold it).
    """
    if rows and not hasattr(rows[0], "answerable"):
        raise UsageError("these rows carry no 'answerable' field (archive rows do not): "
                         "build the arm table from a run directory's records")
    present = list(dict.fromkeys(r.arm for r in rows))
    if rows and baseline not in present:
        raise UsageError(f"--baseline {baseline!r}: not an arm of this run (its arms: "
                         f"{', '.join(present)})")
    groups: dict[tuple[str, str, str], list[Any]] = defaultdict(list)
    for row in rows:
        groups[(row.arm, row.scenario, row.contract_mode)].append(row)
    wrong_calls: dict[tuple[str, str, str], int] = defaultdict(int)
    for item in incorrect_interventions(rows, baseline=baseline):
        wrong_calls[(item.arm, item.scenario, item.contract_mode)] += 1
    arm_order = list(dict.fromkeys(r.arm for r in rows))
    if baseline in arm_order:
        arm_order.remove(baseline)
        arm_order.insert(0, baseline)
    cells = []
    for arm in arm_order:
        for scenario in ordered_scenarios(s for a, s, _ in groups if a == arm):
            for mode in ordered_modes(m for a, s, m in groups if a == arm and s == scenario):
                cell = groups[(arm, scenario, mode)]
                answerable = [r for r in cell if r.answerable]
                cells.append(ArmCell(
                    arm=arm, scenario=scenario, contract_mode=mode, records=len(cell),
                    successes=sum(r.S for r in cell),
                    safe_resolutions=sum(r.safe_resolution and not errored(r) for r in cell),
                    answerable=len(answerable),
                    answerable_successes=sum(r.S for r in answerable),
                    unsafe_safe=sum(r.safe_resolution and not errored(r)
                                    for r in cell if not r.answerable),
                    abstentions=sum(r.abstained and not errored(r) for r in cell),
                    wrong_answers=sum(not r.abstained and not r.S and not errored(r)
                                      for r in cell),
                    incorrect_interventions=wrong_calls[(arm, scenario, mode)],
                    provider_errors=sum(getattr(r, "provider_error", False) for r in cell),
                    agent_errors=sum(getattr(r, "agent_error", False) for r in cell),
                    reader_errors=sum(getattr(r, "reader_error", False) for r in cell)))
    return cells
