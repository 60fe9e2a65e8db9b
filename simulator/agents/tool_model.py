"""A deterministic tool-calling chat model: the offline driver of tool-calling agents.

It behaves like a cautious tool-using model, as a pure function of the messages and tools it
is given (so it is safe under concurrency and needs no provider or key):

1. it searches with the user's question, with ``search_policies`` or, in a graph of your
   own, the bound tool that takes one string (a retriever tool);
2. if the result is unusable (an error, no body, no hit list) it searches once more;
3. it answers with the deterministic extractor over the latest search result it sees (in a
   tool message, or pasted into a prompt: simulator/agents/evidence_text.py), citing the
   document it read the value from, or abstains saying why (access denied to any hit,
   nothing usable, no such value): by calling the structured-answer tool
   (:data:`simulator.agents.answer.ANSWER_TOOL`) when it has it, else in one sentence of
   prose with ``[doc_id]`` citations (:func:`prose_of`), as a model behind a graph without
   a structured answer would;
4. a ``with_structured_output`` request is filled by a documented rule (:func:`_fill`: a
   yes/no relevance grade, or an answer-shaped schema), a request to rewrite the question
   gets the question back, and any other schema is an agent error that says "run with
   --model" (:class:`DriverCannotAnswer`).

In a conversation (``conversation=True``: the cases suite turns it on) it follows the
conversation rules of simulator/answers/conversation.py, as the pipeline does: the earlier
user messages of the thread go before the question it searches with; it asks a clarifying
question when the thread names nothing the question could be about; it reads the value
for the turn's own message in its thread and declines when the article does not answer the
message (the deterministic reader's conversation reading); and it restates the thread's
identifiers in its answer's reason.

It never fetches documents: the extractor reads prose, and a registry record has none. What
it trusts (the hit order and the status/year metadata) is what the deterministic reader
trusts, so it fails on stale, mixed-up or corrupted evidence exactly as the pipeline does.
It stands in for a model: offline runs test a graph's wiring, faults and policies; how a
model follows its prompts is measured with ``--model`` (docs/agents.md).
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from middleware.adapters.scripted_model import ToolBindingChatModel
from simulator.agent.observation import SEARCH_TOOL
from simulator.agents.answer import ANSWER_TOOL
from simulator.agents.evidence_text import Reading, latest_result, read_result
from simulator.agents.harness import POLICY_PREFIX
from simulator.agents.prompt import parse_task_message
from simulator.answers.conversation import (
    CLARIFY_REASON,
    conversation_question,
    needs_clarification,
    restating,
    thread_identifiers,
)
from simulator.answers.prose import prose_abstention, prose_answer
from simulator.endpoints.environment import TOOL_NAMES
from simulator.readers.base import Conversation, ReaderInput
from simulator.readers.deterministic import DeterministicReader

MAX_SEARCHES = 2
"""The first search and one re-search when the first was unusable."""
MODEL_NAME = "deterministic-tool-calling-1"
FETCH_TOOL = TOOL_NAMES[1]


class DeterministicToolCallingModel(ToolBindingChatModel):
    """Search, re-search once if the result is unusable, then submit an extracted answer."""

    model_name: str = MODEL_NAME
    answer_tool: str = ANSWER_TOOL
    search_tool: str = SEARCH_TOOL
    conversation: bool = False
    """Follow the conversation rules (module docstring)."""

    @property
    def _llm_type(self) -> str:
        return "layerrag-deterministic-tools"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_name": self.model_name}

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: Any = None, tools: list[dict[str, Any]] | None = None,
                  tool_choice: Any = None, **kwargs: Any) -> ChatResult:
        bound = {t["function"]["name"]: t["function"] for t in tools or []
                 if isinstance(t.get("function"), dict)}
        message = self._next(messages, bound, tool_choice)
        words_in = sum(len(str(m.content).split()) for m in messages)
        words_out = len(json.dumps(message.tool_calls).split()) + len(str(message.content).split())
        message.usage_metadata = {"input_tokens": words_in, "output_tokens": words_out,
                                  "total_tokens": words_in + words_out}
        return ChatResult(generations=[ChatGeneration(message=message)])

    async def _agenerate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                         run_manager: Any = None, tools: list[dict[str, Any]] | None = None,
                         tool_choice: Any = None, **kwargs: Any) -> ChatResult:
        # No I/O: answer in the loop rather than in the default executor thread.
        return self._generate(messages, stop, None, tools=tools, tool_choice=tool_choice,
                              **kwargs)

    def _next(self, messages: list[BaseMessage], bound: dict[str, dict[str, Any]],
              tool_choice: Any) -> AIMessage:
        question, answer_format = _task(messages)
        thread = _conversation(messages, question) if self.conversation else None
        if thread is not None:  # rule 1: search with the thread
            question = conversation_question(thread.user_messages, question)
        asked = _structured_request(bound, tool_choice, self.answer_tool)
        search = None if asked else _search_tool(bound, self.search_tool, self.answer_tool)
        searches = [] if search is None else _results_of(messages, search[0])
        if search is not None and not searches:
            return self._call(messages, search[0], {search[1]: question})
        reading = _reading(messages, searches)
        if (search is not None and (reading is None or not reading.usable)
                and len(searches) < MAX_SEARCHES):
            return self._call(messages, search[0], {search[1]: question})
        if not bound and _asks_rewrite(messages):
            return AIMessage(content=question)
        submission = _submission(question, answer_format, reading,
                                 has_search=search is not None, conversation=thread)
        if thread is not None:  # it searched anyway: a run with no tool call is an agent error
            submission = _conversing(submission, thread)
        return self._finish(messages, bound, tool_choice, submission)

    def _finish(self, messages: list[BaseMessage], bound: dict[str, dict[str, Any]],
                tool_choice: Any, submission: dict[str, Any]) -> AIMessage:
        """The submission through the structured request, the answer tool, or prose."""
        asked = _structured_request(bound, tool_choice, self.answer_tool)
        if asked is not None:
            return self._call(messages, asked, _fill(asked, bound[asked], submission))
        if self.answer_tool in bound:
            return self._call(messages, self.answer_tool, submission)
        return AIMessage(content=prose_of(submission))

    def _call(self, messages: list[BaseMessage], name: str, args: dict[str, Any]) -> AIMessage:
        digest = hashlib.sha256(
            f"{len(messages)}|{name}|{json.dumps(args, sort_keys=True)}".encode()).hexdigest()
        return AIMessage(content="", tool_calls=[{"name": name, "args": args,
                                                  "id": f"call_{digest[:16]}",
                                                  "type": "tool_call"}])


def _conversation(messages: list[BaseMessage], message: str) -> Conversation:
    """The thread the task message comes from: the exchanges before it (each user message
    with the reply that followed it), then the turn's message."""
    pairs: list[tuple[str, str]] = []
    user: str | None = None
    for m in messages:
        if isinstance(m, HumanMessage):
            if parse_task_message(_text(m))[1] is not None:
                break
            user = _text(m)
        elif isinstance(m, AIMessage) and user is not None:
            pairs.append((user, _text(m)))
            user = None
    return Conversation(history=tuple(pairs), message=message)


def _conversing(submission: dict[str, Any], thread: Conversation) -> dict[str, Any]:
    """Rules 2 and 3: ask when the thread names nothing; restate the thread's identifiers
    (rule 6 is the reader's: it declines when the article does not answer the message)."""
    if needs_clarification(thread.user_messages, thread.message):
        return {**_abstain(CLARIFY_REASON), "answer_type": "clarify"}
    named = thread_identifiers(thread.user_messages, thread.message)
    if submission["abstain"] or not named:
        return submission
    return {**submission, "reason": restating(named, "the knowledge base says so.")}


def _results_of(messages: list[BaseMessage], tool: str) -> list[ToolMessage]:
    """The results of ``tool``'s calls: tool messages that name it, or answer a call of
    it by id (a hand-written tool node need not set ``name``)."""
    ids = {c["id"] for m in messages if isinstance(m, AIMessage) for c in m.tool_calls
           if c["name"] == tool}
    return [m for m in messages if isinstance(m, ToolMessage)
            and (m.name == tool or (not m.name and m.tool_call_id in ids))]


class DriverCannotAnswer(Exception):
    """A request the offline driver has no documented rule for: the record is an agent
    error that says so (simulator/agents/episode.py), never a guess."""


def _task(messages: list[BaseMessage]) -> tuple[str, str | None]:
    """The question and its answer format: from the first user message that states a
    format (the task message, or a prompt a node built around it), else the first one."""
    texts = [_text(m) for m in messages if isinstance(m, HumanMessage)]
    for text in texts:
        question, answer_format = parse_task_message(text)
        if answer_format is not None:
            return _question_line(question), answer_format
    return (texts[0].strip(), None) if texts else ("", None)


_QUESTION_PREFIX = re.compile(r"(?i)^.*\bquestion\b\s*:\s*")
_REWRITE = re.compile(r"(?i)\b(rewrite|rephrase|reformulate|improved question)\b")


def _question_line(text: str) -> str:
    """The question itself: the last line before the format, without a prompt's
    ``...question:`` lead-in."""
    lines = [line for line in text.splitlines() if line.strip()]
    return _QUESTION_PREFIX.sub("", lines[-1]).strip() if lines else ""


def _asks_rewrite(messages: list[BaseMessage]) -> bool:
    """A request without tools whose last user message asks to rewrite the question."""
    last = next((m for m in reversed(messages) if isinstance(m, HumanMessage)), None)
    return last is not None and _REWRITE.search(_text(last)) is not None


def _structured_request(bound: dict[str, dict[str, Any]], tool_choice: Any,
                        answer_tool: str) -> str | None:
    """The schema a ``with_structured_output`` call asks for: one bound tool, forced, and
    not a role tool."""
    if len(bound) != 1:
        return None
    (name,) = bound
    forced = tool_choice in ("any", "required", name) or (
        isinstance(tool_choice, dict) and name in json.dumps(tool_choice))
    return name if forced and name not in (SEARCH_TOOL, FETCH_TOOL, answer_tool) else None


def _search_tool(bound: dict[str, dict[str, Any]], preferred: str, answer_tool: str
                 ) -> tuple[str, str] | None:
    """(name, query argument) of the search-role tool: ``search_policies``, else the bound
    tool that takes one string (a retriever tool), preferring a name that says it searches."""
    if preferred in bound:
        return preferred, "query"
    candidates = []
    for name, spec in bound.items():
        params = spec.get("parameters") or {}
        props = params.get("properties") or {}
        strings = [k for k, v in props.items() if isinstance(v, dict)
                   and v.get("type") == "string"]
        required = params.get("required") or list(props)
        if name not in (answer_tool, FETCH_TOOL) and len(strings) == 1 \
                and set(required) <= set(strings):
            candidates.append((name, strings[0]))
    candidates.sort(key=lambda c: (not _SEARCHY.search(c[0]), c[0]))
    return candidates[0] if candidates else None


_SEARCHY = re.compile(r"(?i)search|retriev|find|lookup|query")


def _reading(messages: list[BaseMessage], searches: list[ToolMessage]) -> Reading | None:
    """The latest search result the messages carry: the last search tool's result (an
    error or an unreadable one is unusable), or context pasted into a prompt."""
    if searches:
        last = searches[-1]
        if last.status == "error":
            return Reading(error=_text(last)[:200])
        return read_result(_text(last)) or Reading(error=_text(last)[:200])
    return latest_result(_text(m) for m in messages if not isinstance(m, AIMessage))


def _text(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    return "\n".join(part.get("text", "") if isinstance(part, dict) else str(part)
                     for part in content)


def _fill(name: str, spec: dict[str, Any], submission: dict[str, Any]) -> dict[str, Any]:
    """Arguments for a structured request, by two documented rules (docs/agents.md):

    - a *grade*: one field (a string, a yes/no choice or a boolean): "yes" / true when the
      evidence answers the question (the answer the driver would give is not an
      abstention), else "no" / false;
    - an *answer*: a schema with an ``answer`` field, filled from the same answer as
      ``FinalAnswer`` (``answer``, ``citations``, ``abstain``, ``reason``, ``conflict``,
      those the schema has).

    Anything else raises :class:`DriverCannotAnswer`."""
    props = (spec.get("parameters") or {}).get("properties") or {}
    required = set((spec.get("parameters") or {}).get("required") or ())
    relevant = not submission["abstain"]
    if len(props) == 1:
        (field_name, field_spec), = props.items()
        kind = field_spec.get("type") if isinstance(field_spec, dict) else None
        choices = field_spec.get("enum") if isinstance(field_spec, dict) else None
        if kind == "boolean":
            return {field_name: relevant}
        if kind == "string" and (choices is None or {"yes", "no"} <= set(choices)):
            return {field_name: "yes" if relevant else "no"}
    if "answer" in props and required <= set(submission) & set(props):
        return {k: v for k, v in submission.items() if k in props}
    raise DriverCannotAnswer(f"the offline driver cannot answer schema {name}; "
                             "run with --model")


def _submission(question: str, answer_format: str | None, reading: Reading | None, *,
                has_search: bool, conversation: Conversation | None = None) -> dict[str, Any]:
    if reading is None or not reading.usable:
        why = (reading.error if reading is not None else None) or (
            "no search result" if has_search else "no search tool")
        return _abstain(f"the search returned nothing usable ({why})")
    if reading.denied:
        # Cautious by design: with part of the results withheld, what is left may not be
        # the governing text.
        return _abstain("access to some of the relevant documents was denied")
    if answer_format is None:
        return _abstain("the task states no answer format")
    # A policy's instructions ride in the notes, marked (simulator/agents/harness.py).
    told = tuple(n for n in reading.notes if n.startswith(POLICY_PREFIX))
    item = ReaderInput(question=question, answer_format=answer_format,
                       evidence=reading.evidence,
                       notes=tuple(n for n in reading.notes if n not in told),
                       instructions="\n".join(told), conversation=conversation)
    answer = DeterministicReader().read(item).answer
    conflict = answer.conflict.model_dump()
    # a turn of a conversation: the reply's support fields (FinalAnswer's optional ones)
    support: dict[str, Any] = {} if conversation is None else {
        "steps": list(answer.steps), "identifiers": list(answer.identifiers),
        "answer_type": answer.answer_type}
    if answer.abstained:
        return {**_abstain(answer.reason or "no answer"), "conflict": conflict, **support}
    return {"answer": answer.answer, "citations": list(answer.citations), "abstain": False,
            "reason": None, "conflict": conflict, **support}


def prose_of(submission: dict[str, Any]) -> str:
    """The submission as the final sentence of an agent with no structured answer: the value
    and its citations, or an abstention that simulator/answers/prose.py recognises."""
    if submission["abstain"]:
        return prose_abstention(submission["reason"] or "no answer")
    return prose_answer(submission["answer"], submission["citations"])


def _abstain(reason: str) -> dict[str, Any]:
    return {"answer": None, "citations": [], "abstain": True, "reason": reason}
