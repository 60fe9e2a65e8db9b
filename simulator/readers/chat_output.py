"""Structured output for chat readers: ask for ``{answer, citations, abstain, reason}``.

Three ways to ask, chosen per provider (see :mod:`simulator.readers.chat_clients`):

- ``json_schema``: OpenAI-style ``response_format`` with a strict JSON schema (OpenAI,
  vLLM, recent llama.cpp and Ollama);
- ``json_object``: ``{"type": "json_object", "schema": ...}``, for local servers that
  reject ``json_schema`` but constrain JSON output to a schema this way;
- ``tool``: a forced ``submit_answer`` tool call (Anthropic, Gemini);
- ``json_prompt``: no ``response_format`` at all: the prompt asks for the JSON object and
  the reply is read tolerantly (a fenced block, or the object inside prose), for servers
  that accept neither (``--structured-output auto`` finds it, simulator/readers/chat_probe.py).

Parsing is ours rather than LangChain's ``with_structured_output``, whose failure modes
differ per method (some raise, some return None): here every malformed or schema-invalid
answer becomes the same thing, a reader failure with a reason, and the call's token usage
is kept either way.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal, NamedTuple

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.runnables import Runnable
from pydantic import BaseModel, ConfigDict, ValidationError

from simulator.answers.schema import ANSWER_TYPES, NO_CONFLICT, AnswerType, ConflictDisclosure
from simulator.readers.base import AgentAnswer, unknown_answer

OutputMethod = Literal["json_schema", "json_object", "tool", "json_prompt"]
ANSWER_TOOL = "submit_answer"
ANSWER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "answer": {"type": ["string", "null"],
                   "description": "The value in the requested format; null when abstaining."},
        "citations": {"type": "array", "items": {"type": "string"},
                      "description": "doc_id of every document the answer relies on."},
        "abstain": {"type": "boolean",
                    "description": "True when the evidence does not support an answer."},
        "reason": {"type": ["string", "null"],
                   "description": "Why you abstained, or a short note; may be null."},
        "conflict": {
            "type": "object",
            "description": "Whether the evidence contradicted itself, and what you did.",
            "properties": {
                "noticed": {"type": "boolean",
                            "description": "True when documents or notes contradict each "
                                           "other."},
                "resolution": {"type": "string", "enum": ["clarify", "resolved", "none"],
                               "description": "clarify: you ask which applies (abstain); "
                                              "resolved: you chose one and say why; none."},
                "note": {"type": ["string", "null"],
                         "description": "Which sources disagree; null when none."},
            },
            "required": ["noticed", "resolution", "note"],
            "additionalProperties": False,
        },
    },
    "required": ["answer", "citations", "abstain", "reason", "conflict"],
    "additionalProperties": False,
}


CASE_ANSWER_SCHEMA: dict[str, Any] = {
    **ANSWER_SCHEMA,
    "properties": {
        **ANSWER_SCHEMA["properties"],
        "steps": {"type": "array", "items": {"type": "string"},
                  "description": "The actions the documents say to take, in order; [] when "
                                 "none."},
        "identifiers": {"type": "array", "items": {"type": "string"},
                        "description": "Every error code, version, asset or ticket id, "
                                       "command and file path the reply refers to, exactly."},
        "answer_type": {"type": "string", "enum": list(ANSWER_TYPES),
                        "description": "diagnose, instruct, clarify (abstain to ask) or "
                                       "abstain."},
    },
    "required": [*ANSWER_SCHEMA["required"], "steps", "identifiers", "answer_type"],
}
"""A turn of a support conversation: the answer contract plus the reply's support keys."""


class StructuredAnswer(BaseModel):
    """The answer contract. Numbers are accepted as answers (``30`` for "30 days")."""

    model_config = ConfigDict(frozen=True, extra="forbid", coerce_numbers_to_str=True)
    answer: str | None
    citations: list[str]
    abstain: bool
    reason: str | None
    conflict: ConflictDisclosure = NO_CONFLICT
    """Asked for, but not required to parse: a reply without it claims no conflict."""


class CaseStructuredAnswer(StructuredAnswer):
    """A conversation turn's contract. The support keys are asked for, not required to
    parse: a reply without them recommends no step and claims no type."""

    steps: list[str] = []
    identifiers: list[str] = []
    answer_type: AnswerType | None = None


class ParsedAnswer(NamedTuple):
    answer: AgentAnswer
    reader_error: bool


def bind_output(model: BaseChatModel, method: OutputMethod, *, case: bool = False
                ) -> Runnable[Any, Any]:
    """``model`` configured to answer through ``method`` (with ``case``, a conversation
    turn's contract)."""
    answer_schema = CASE_ANSWER_SCHEMA if case else ANSWER_SCHEMA
    if method == "tool":
        # Tool parameters need no additionalProperties (Gemini warns about it on every call).
        schema = {k: v for k, v in answer_schema.items() if k != "additionalProperties"}
        tool = {"title": ANSWER_TOOL, "description": "Submit the answer to the question.",
                **schema}
        return model.bind_tools([tool], tool_choice=ANSWER_TOOL)
    if method == "json_prompt":
        return model
    response_format = ({"type": "json_schema", "json_schema": {
        "name": "reader_answer", "schema": answer_schema, "strict": True}}
        if method == "json_schema" else {"type": "json_object", "schema": answer_schema})
    # Sent in the body rather than as ``response_format=``: LangChain would then route the
    # call through the SDK's client-side parsing (``completions.parse``), which costs ~0.7 ms
    # of CPU per call and adds nothing, since parse_answer validates the answer itself.
    extra_body = {**(getattr(model, "extra_body", None) or {}),
                  "response_format": response_format}
    return model.bind(extra_body=extra_body)


def names_response_format(error: BaseException) -> bool:
    """A 400 saying the server does not accept this ``response_format``."""
    from simulator.live.classify import status_of

    text = str(getattr(error, "message", "") or error)
    return status_of(error) == 400 and "response_format" in text


_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)


def _payload(message: AIMessage, method: OutputMethod) -> tuple[Any, str | None]:
    """The JSON value the model produced, or None and why there is none."""
    if method == "tool":
        for call in message.tool_calls:
            if call["name"] == ANSWER_TOOL:
                return call["args"], None
        if message.invalid_tool_calls:
            return None, "the answer tool call was not valid JSON"
        return None, "no answer tool call"
    text = message.text.strip()
    fenced = _FENCE.match(text)
    if method == "json_prompt" and not fenced:
        text = _embedded_object(text)
    try:
        return json.loads(fenced.group(1) if fenced else text), None
    except json.JSONDecodeError:
        return None, "the answer was not valid JSON"


_ANY_FENCE = re.compile(r"```(?:json)?\s*(\{.*?\})\s*```", re.DOTALL)


def _embedded_object(text: str) -> str:
    """The JSON object inside a plain reply: a fenced block, else first ``{`` to last ``}``."""
    fenced = _ANY_FENCE.search(text)
    if fenced:
        return fenced.group(1)
    start, end = text.find("{"), text.rfind("}")
    return text[start:end + 1] if 0 <= start < end else text


def parse_answer(message: AIMessage, method: OutputMethod, *, case: bool = False
                 ) -> ParsedAnswer:
    """The model's answer, or a structured unknown recorded as a reader failure (with
    ``case``, a conversation turn's, its support keys kept)."""
    value, why = _payload(message, method)
    if why is None:
        try:
            structured = (CaseStructuredAnswer if case else StructuredAnswer
                          ).model_validate(value)
        except ValidationError as exc:
            fields = sorted({".".join(map(str, e["loc"])) or "answer" for e in exc.errors()})
            why = f"the answer did not match the schema ({', '.join(fields)})"
        else:
            citations = tuple(dict.fromkeys(c.strip() for c in structured.citations
                                            if c.strip()))
            support: dict[str, object] = {} if not isinstance(
                structured, CaseStructuredAnswer) else {
                "steps": tuple(s.strip() for s in structured.steps if s.strip()),
                "identifiers": tuple(i.strip() for i in structured.identifiers if i.strip()),
                "answer_type": structured.answer_type}
            if structured.abstain:
                return ParsedAnswer(unknown_answer(structured.reason or "abstained",
                                                   structured.conflict,
                                                   answer=structured.answer,
                                                   citations=citations
                                                   ).model_copy(update=support), False)
            if structured.answer is not None and structured.answer.strip():
                return ParsedAnswer(AgentAnswer(answer=structured.answer.strip(),
                                                citations=citations, abstained=False,
                                                reason=structured.reason,
                                                conflict=structured.conflict
                                                ).model_copy(update=support), False)
            why = "no answer and no abstention"
    meta = message.response_metadata
    if {meta.get("finish_reason"), meta.get("stop_reason")} & {"length", "max_tokens",
                                                                "MAX_TOKENS"}:
        why += ", cut off at the output token limit"
    return ParsedAnswer(unknown_answer(f"reader error: {why}"), True)
