"""What an agent's reply to one turn of a case is, as the case scorer reads it.

A turn's reply is the agent's final answer (value, citations, or a structured non-answer)
plus what a support reply carries beside it: the steps it recommends, the identifiers it
names, the answer type it claims, and its text. The conversation runner fills this from the
agent's answer; the case scorer (simulator/cases/scoring.py) reads nothing else of the
agent, so a reply scores the same whichever agent produced it.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from simulator.answers.schema import AnswerType

ReplyType = AnswerType


class TurnReply(BaseModel):
    """One turn's reply, agent side only (no label)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    answer: str | None
    """The value stated, or None for a non-answer."""
    abstained: bool
    """A structured non-answer (clarifying question or refusal), not a value."""
    clarify: bool = False
    """The non-answer asks the user a clarifying question (the safe reply to an
    underspecified turn); False for a plain "cannot answer"."""
    citations: tuple[str, ...] = ()
    steps: tuple[str, ...] = ()
    """The actions the reply recommends, in its order, as written (free text)."""
    identifiers: tuple[str, ...] = ()
    """The identifiers the reply names (error codes, versions, asset or ticket ids,
    commands, paths), as written."""
    answer_type: ReplyType | None = None
    """The type the agent claims for its reply, when it says."""
    text: str = ""
    """The reply as the user would read it (value, reason, steps), for identifier checks."""

    @property
    def reply_type(self) -> ReplyType:
        """What the reply does: its claimed type, else clarify / abstain for a non-answer
        and diagnose for a value."""
        if self.answer_type is not None:
            return self.answer_type
        if self.abstained:
            return "clarify" if self.clarify else "abstain"
        return "diagnose"


__all__ = ["ReplyType", "TurnReply"]
