"""What a run record of a case turn carries beside the single-turn record's fields.

A turn is a record of the run store like any other (its key's task id is the turn id), so
resume, the store's checks and the strict scorer work unchanged; this part says which case
and turn it is, what the agent was given as memory, what it replied, and how the turn
scored. Evaluator side, like the record: the agent never reads a record.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from simulator.cases.reply import TurnReply
from simulator.cases.scoring import TurnScore

Memory = Literal["own", "foreign", "mixed", "refused"]
"""The history the agent was given for the turn: its own thread's; another thread's (a
session fault served it and nothing refused it); its own thread's, mixed up by a foreign
memory an earlier turn took in; or another session's, refused by a session control, so its
own (or none, when its own was mixed up)."""


class CaseTurn(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    case_id: str
    case_key: str
    """The spec's id of the case (``PSC-01``)."""
    turn: int = Field(ge=1)
    """1-based, as a user counts turns."""
    turns: int = Field(ge=1)
    """How many turns the case has."""
    epoch: int = Field(default=1, ge=1)
    """Which repetition of the case (``--epochs``), from 1."""
    kind: str
    """The turn's kind (answerable, follow_up, underspecified, unanswerable)."""
    message: str
    fault_active: bool
    """Whether the scenario's faults acted on this turn (the run's schedule)."""
    memory: Memory = "own"
    history: tuple[tuple[str, str], ...] = ()
    """The memory the turn was answered with: (user message, reply) per earlier exchange,
    the thread's own or, under a session fault, another thread's. Resume rebuilds the
    thread from the last stored turn's history and exchange."""
    memory_session: str
    """The session the thread's memory belongs to after this turn: the case's own, unless a
    foreign memory was taken in (then the thread stays mixed up). Resume rebuilds the
    thread from it."""
    reply: TurnReply | None
    """None when the turn errored before replying."""
    score: TurnScore
