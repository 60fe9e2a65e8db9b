"""The final answer a tool-calling agent submits: the project's answer schema as a
``response_format`` (``create_agent(..., response_format=ToolStrategy(FinalAnswer))``).

The fields are the chat readers' (``answer, citations, abstain, reason``), so a model sees
one contract whichever way it is run; :func:`to_agent_answer` turns a submission into the
scorer's :class:`~simulator.answers.schema.AgentAnswer`.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from simulator.answers.schema import NO_CONFLICT, AgentAnswer, ConflictDisclosure, unknown_answer

ANSWER_TOOL = "FinalAnswer"
"""The name the structured-answer tool has in the model's tool list (the class name)."""


class FinalAnswer(BaseModel):
    """Submit the final answer to the question."""

    model_config = ConfigDict(frozen=True, extra="forbid", coerce_numbers_to_str=True)
    answer: str | None = Field(
        description="The value in the requested answer format; null when abstaining.")
    citations: list[str] = Field(
        description="doc_id of every document the answer relies on.")
    abstain: bool = Field(description="True when the evidence does not support an answer.")
    reason: str | None = Field(
        default=None, description="Why you abstained, or a short note; may be null.")
    conflict: ConflictDisclosure = Field(
        default=NO_CONFLICT,
        description="Whether the evidence contradicted itself (two versions of one policy "
                    "both claiming to apply, or a note disputing a document): noticed, "
                    "resolution (clarify: you abstain to ask; resolved: you chose one; "
                    "none) and a note naming the sources.")


def to_agent_answer(submitted: FinalAnswer | None) -> AgentAnswer:
    """The scorer's answer for a submission; no submission is a non-answer."""
    if submitted is None:
        return unknown_answer("the agent submitted no final answer")
    if submitted.abstain or not (submitted.answer or "").strip():
        return unknown_answer(submitted.reason or "abstained", submitted.conflict,
                              answer=submitted.answer, citations=tuple(submitted.citations))
    return AgentAnswer(answer=submitted.answer, citations=tuple(submitted.citations),
                       reason=submitted.reason, conflict=submitted.conflict)
