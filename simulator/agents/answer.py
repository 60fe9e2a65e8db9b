"""The final answer a tool-calling agent submits: the project's answer schema as a
``response_format`` (``create_agent(..., response_format=ToolStrategy(FinalAnswer))``).

The fields are the chat readers' (``answer, citations, abstain, reason``), so a model sees
one contract whichever way it is run, plus what a support reply carries in a conversation
(``steps``, ``identifiers``, ``answer_type``: optional, empty on a single question);
:func:`to_agent_answer` turns a submission into the scorer's
:class:`~simulator.answers.schema.AgentAnswer`.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from simulator.answers.schema import (
    NO_CONFLICT,
    AgentAnswer,
    AnswerType,
    ConflictDisclosure,
    unknown_answer,
)

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
    steps: list[str] = Field(
        default_factory=list,
        description="In a support conversation: the actions you recommend, in the order "
                    "they must be done; [] when none.")
    identifiers: list[str] = Field(
        default_factory=list,
        description="In a support conversation: the error codes, versions, asset or ticket "
                    "ids, commands and file paths your reply refers to, copied exactly.")
    answer_type: AnswerType | None = Field(
        default=None,
        description="In a support conversation: diagnose (what is wrong), instruct (what "
                    "to do), clarify (you abstain to ask the user for what is missing; put "
                    "the question in reason) or abstain (the documents do not say).")


def to_agent_answer(submitted: FinalAnswer | None) -> AgentAnswer:
    """The scorer's answer for a submission; no submission is a non-answer."""
    if submitted is None:
        return unknown_answer("the agent submitted no final answer")
    said: dict[str, object] = {"steps": tuple(submitted.steps),
                               "identifiers": tuple(submitted.identifiers),
                               "answer_type": submitted.answer_type}
    if submitted.abstain or not (submitted.answer or "").strip():
        answer = unknown_answer(submitted.reason or "abstained", submitted.conflict,
                                answer=submitted.answer, citations=tuple(submitted.citations))
    else:
        answer = AgentAnswer(answer=submitted.answer, citations=tuple(submitted.citations),
                             reason=submitted.reason, conflict=submitted.conflict)
    return answer.model_copy(update=said)
