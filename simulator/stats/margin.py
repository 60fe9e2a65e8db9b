"""Layer credit: did a mitigation move its target scenarios and leave the others alone?"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Mapping

from pydantic import BaseModel, ConfigDict

from simulator.errors import UsageError
from simulator.stats.paired import Effect


class Specificity(BaseModel):
    """The pieces of a specificity margin, for tables that show how it was reached."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    targets: tuple[str, ...]
    target_gain: float
    """The smallest paired gain among the target scenarios."""
    largest_off_target: float
    """The largest absolute paired change among the other scenarios (0 when there are none)."""
    off_target_scenario: str | None
    """Which scenario that largest off-target change came from; None when none moved."""
    margin: float
    """``target_gain - largest_off_target``: positive when the credit is specific."""


def specificity(effects: Mapping[str, Effect], targets: Collection[str]) -> Specificity:
    """Break the margin down: target gain, the worst off-target change, and the margin.

    With several target scenarios (a completeness mitigation targets both partial timeout and
    missing output) the target gain is the smallest of their gains, so a positive margin
    means every target moved more than any off-target scenario did.
    """
    wanted = tuple(sorted(set(targets)))
    if not wanted:
        raise UsageError("specificity margin needs at least one target scenario")
    for name in wanted:
        if name not in effects:
            close = difflib.get_close_matches(name, list(effects), n=1)
            hint = f" Did you mean: {close[0]}?" if close else ""
            raise UsageError(f"target scenario {name!r} has no effect.{hint} "
                             f"Known: {', '.join(effects)}.")
    gain = min(effects[name].estimate for name in wanted)
    off = sorted(((abs(e.estimate), name) for name, e in effects.items() if name not in wanted),
                 key=lambda pair: (-pair[0], pair[1]))
    largest, where = off[0] if off else (0.0, None)
    where = where if largest > 0.0 else None
    return Specificity(targets=wanted, target_gain=gain, largest_off_target=largest,
                       off_target_scenario=where, margin=gain - largest + 0.0)


def specificity_margin(effects: Mapping[str, Effect], targets: Collection[str]) -> float:
    """Target-layer gain minus the largest absolute off-target change (proportions).

    ``effects`` maps scenario -> paired effect of one mitigation (repair - strict, or
    with policy - without policy); ``targets`` are the scenarios of the layer it claims to
    repair. The paper's schema repair: 0.913 - 0.007 = 0.906.
    """
    return specificity(effects, targets).margin
