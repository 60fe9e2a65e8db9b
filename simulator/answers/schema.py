"""The answer schema every agent and reader returns: a value with citations, or a
structured non-answer with a reason.

It lives with the answer formats, below everything that produces or judges answers (the
readers, the agent, the call cache, the scorer), so each can import it without depending on
another's package.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, model_validator

MAX_ANSWER_CHARS = 4000
"""The most characters of an answer (and of its reason) a record keeps. An answer is a value
with citations, a sentence or two of prose at most; a longer one (a model looping, a 20 MB
tool dump pasted back) is cut to this length when the answer is made, flagged
``truncated``, and scored on what remains, so the run store never holds a 20 MB row."""

Resolution = Literal["clarify", "resolved", "none"]
"""What an answer did about a conflict it noticed: asked for clarification (a safe
non-answer), resolved it itself and answered, or nothing."""
RESOLUTIONS: tuple[Resolution, ...] = ("clarify", "resolved", "none")


class ConflictDisclosure(BaseModel):
    """Whether the answer says its evidence contradicted itself, and what it did about it.

    ConInstruct (papers/coninstruct.txt) finds that models which can detect a conflict rarely
    say so; a structured field makes "said so" a fact the scorer can read
    (simulator/scoring/behaviour.py) instead of a guess from prose.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    noticed: bool = False
    """The answer states that the evidence holds contradictory versions or claims."""
    resolution: Resolution = "none"
    note: str | None = None
    """One sentence on the conflict (which sources disagree, which one was followed)."""


NO_CONFLICT = ConflictDisclosure()
"""The disclosure of an answer that claims no conflict."""


AnswerType = Literal["diagnose", "instruct", "clarify", "abstain"]
"""What a support reply does (the case-aware judge's types): says what is wrong, says what to
do, asks for what is missing, or declines."""
ANSWER_TYPES: tuple[AnswerType, ...] = ("diagnose", "instruct", "clarify", "abstain")


class AgentAnswer(BaseModel):
    """An agent's or reader's output. ``abstained`` answers carry a reason and no value.

    In a support conversation (the cases suite) a reply may carry more beside the value:
    the steps it recommends, the identifiers it names and the answer type it claims; the
    case scorer reads them (simulator/cases/scoring.py). A single question leaves them
    empty."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    answer: str | None
    citations: tuple[str, ...] = ()
    abstained: bool = False
    reason: str | None = None
    conflict: ConflictDisclosure = NO_CONFLICT
    """The answer's conflict disclosure (default: none claimed)."""
    steps: tuple[str, ...] = ()
    """The actions the reply recommends, in order, as written."""
    identifiers: tuple[str, ...] = ()
    """The identifiers the reply names (error codes, versions, asset or ticket ids, commands,
    paths), exactly as written."""
    answer_type: AnswerType | None = None
    """The type the reply claims, when it claims one."""
    truncated: bool = False
    """The answer or reason was longer than :data:`MAX_ANSWER_CHARS` and was cut to it."""

    @model_validator(mode="before")
    @classmethod
    def _cap(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        long = [k for k in ("answer", "reason")
                if isinstance(data.get(k), str) and len(data[k]) > MAX_ANSWER_CHARS]
        if not long:
            return data
        return {**data, **{k: data[k][:MAX_ANSWER_CHARS] for k in long}, "truncated": True}


def unknown_answer(reason: str, conflict: ConflictDisclosure = NO_CONFLICT, *,
                   answer: str | None = None, citations: tuple[str, ...] = ()) -> AgentAnswer:
    """The structured non-answer, with a stated reason. ``answer`` and ``citations`` are
    what an agent submitted beside its abstention (``abstain: true`` with a value): kept in
    the record so that what it said can be read, never scored (an abstention is a strict
    failure and the scorer reads no value from it: simulator/scoring/metrics.py)."""
    said = answer.strip() if answer is not None and answer.strip() else None
    return AgentAnswer(answer=said, citations=citations if said is not None else (),
                       abstained=True, reason=reason, conflict=conflict)
