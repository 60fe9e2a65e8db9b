"""The answer schema every agent and reader returns: a value with citations, or a
structured non-answer with a reason.

It lives with the answer formats, below everything that produces or judges answers (the
readers, the agent, the call cache, the scorer), so each can import it without depending on
another's package.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class AgentAnswer(BaseModel):
    """An agent's or reader's output. ``abstained`` answers carry a reason and no value."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    answer: str | None
    citations: tuple[str, ...] = ()
    abstained: bool = False
    reason: str | None = None


def unknown_answer(reason: str) -> AgentAnswer:
    """The structured non-answer: no value, no citations, a stated reason."""
    return AgentAnswer(answer=None, citations=(), abstained=True, reason=reason)
