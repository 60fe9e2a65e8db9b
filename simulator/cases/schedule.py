"""When a scenario's faults act in a conversation: ``at:K`` (turn K only), ``from:K``
(turn K and every later turn) or ``always``.

Turns are counted from 1, as a user counts them ("a fault at turn 2"). The schedule is part
of the run's configuration (``--fault-turns``), so the nine scenarios apply mid-conversation
unchanged: on a turn outside the schedule the agent's tools run through the clean chain. A
scenario may declare its own (``Scenario.turns``, data like the rest of it), which wins
over the run's for that scenario.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from simulator.errors import UsageError

DEFAULT_SCHEDULE = "at:2"
"""The issue's reference schedule: every scenario's fault acts on the second turn."""


class TurnSchedule(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    when: Literal["at", "from", "always"]
    turn: int = Field(default=1, ge=1)

    def active(self, turn: int) -> bool:
        """Whether the faults act on ``turn`` (1-based)."""
        if self.when == "always":
            return True
        return turn == self.turn if self.when == "at" else turn >= self.turn

    def __str__(self) -> str:
        return "always" if self.when == "always" else f"{self.when}:{self.turn}"


def parse_schedule(text: str) -> TurnSchedule:
    """``at:2``, ``from:3`` or ``always``; anything else is a one-line error."""
    value = text.strip()
    if value == "always":
        return TurnSchedule(when="always")
    when, _, number = value.partition(":")
    if when not in ("at", "from") or not number.isdigit() or int(number) < 1:
        raise UsageError(f"--fault-turns {text!r}: expected at:K, from:K (K a turn number "
                         "from 1) or always")
    return TurnSchedule(when=when, turn=int(number))  # type: ignore[arg-type]
