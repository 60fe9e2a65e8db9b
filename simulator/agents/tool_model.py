"""A deterministic tool-calling chat model: the offline driver of the ``react`` agent.

It behaves like a cautious tool-using model, as a pure function of the messages it is given
(so it is safe under concurrency and needs no provider or key):

1. it searches with the user's question;
2. if the result is unusable (an error, no body, no hit list) it searches once more;
3. it answers with the deterministic extractor over the hits it got, citing the document it
   read the value from, or abstains saying why (access denied to any hit, nothing usable,
   no such value),
   by calling the structured-answer tool (:data:`simulator.agents.answer.ANSWER_TOOL`), or,
   when the agent binds no such tool, in one sentence of prose with ``[doc_id]`` citations
   (:func:`prose_of`), as a model behind a graph without a structured answer would.

It never fetches documents: the extractor reads prose, and a registry record has none. What
it trusts (the hit order and the status/year metadata) is what the deterministic reader
trusts, so it fails on stale, mixed-up or corrupted evidence exactly as the pipeline does.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import ValidationError

from middleware.adapters.scripted_model import ToolBindingChatModel
from simulator.agent.observation import SEARCH_TOOL, evidence_of
from simulator.agents.answer import ANSWER_TOOL
from simulator.agents.harness import POLICY_PREFIX
from simulator.agents.prompt import parse_task_message
from simulator.answers.prose import prose_abstention, prose_answer
from simulator.endpoints.payload import SearchPayload
from simulator.readers.base import ReaderInput
from simulator.readers.deterministic import DeterministicReader

MAX_SEARCHES = 2
"""The first search and one re-search when the first was unusable."""
MODEL_NAME = "deterministic-tool-calling-1"


class DeterministicToolCallingModel(ToolBindingChatModel):
    """Search, re-search once if the result is unusable, then submit an extracted answer."""

    model_name: str = MODEL_NAME
    answer_tool: str = ANSWER_TOOL
    search_tool: str = SEARCH_TOOL

    @property
    def _llm_type(self) -> str:
        return "layerrag-deterministic-tools"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model_name": self.model_name}

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: Any = None, tools: list[dict[str, Any]] | None = None,
                  **kwargs: Any) -> ChatResult:
        names = {t.get("function", {}).get("name") for t in tools or []}
        message = self._next(messages, names)
        words_in = sum(len(str(m.content).split()) for m in messages)
        words_out = len(json.dumps(message.tool_calls).split()) + len(str(message.content).split())
        message.usage_metadata = {"input_tokens": words_in, "output_tokens": words_out,
                                  "total_tokens": words_in + words_out}
        return ChatResult(generations=[ChatGeneration(message=message)])

    async def _agenerate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                         run_manager: Any = None, tools: list[dict[str, Any]] | None = None,
                         **kwargs: Any) -> ChatResult:
        # No I/O: answer in the loop rather than in the default executor thread.
        return self._generate(messages, stop, None, tools=tools, **kwargs)

    def _next(self, messages: list[BaseMessage], tools: set[str | None]) -> AIMessage:
        question, answer_format = _task(messages)
        searches = [m for m in messages
                    if isinstance(m, ToolMessage) and m.name == self.search_tool]
        can_search = self.search_tool in tools
        if can_search and not searches:
            return self._call(messages, self.search_tool, {"query": question})
        payload = _payload(searches[-1]) if searches else None
        if payload is None and can_search and len(searches) < MAX_SEARCHES:
            return self._call(messages, self.search_tool, {"query": question})
        submission = _submission(question, answer_format, payload, searches)
        if self.answer_tool in tools:
            return self._call(messages, self.answer_tool, submission)
        return AIMessage(content=prose_of(submission))

    def _call(self, messages: list[BaseMessage], name: str, args: dict[str, Any]) -> AIMessage:
        digest = hashlib.sha256(
            f"{len(messages)}|{name}|{json.dumps(args, sort_keys=True)}".encode()).hexdigest()
        return AIMessage(content="", tool_calls=[{"name": name, "args": args,
                                                  "id": f"call_{digest[:16]}",
                                                  "type": "tool_call"}])


def _task(messages: list[BaseMessage]) -> tuple[str, str | None]:
    first = next((m for m in messages if isinstance(m, HumanMessage)), None)
    return parse_task_message(str(first.content)) if first is not None else ("", None)


def _payload(message: ToolMessage) -> SearchPayload | None:
    """The search payload a tool message carries, or None when it is unusable."""
    if message.status == "error" or not isinstance(message.content, str):
        return None
    try:
        return SearchPayload.model_validate_json(message.content)
    except ValidationError:
        return None


def _submission(question: str, answer_format: str | None, payload: SearchPayload | None,
                searches: list[ToolMessage]) -> dict[str, Any]:
    if payload is None:
        why = str(searches[-1].content)[:200] if searches else "no search tool"
        return _abstain(f"the search returned nothing usable ({why})")
    if payload.access.denied:
        # Cautious by design: with part of the results withheld, what is left may not be
        # the governing text.
        return _abstain("access to some of the relevant documents was denied")
    if answer_format is None:
        return _abstain("the task states no answer format")
    # A policy's instructions ride in the notes, marked (simulator/agents/harness.py).
    told = tuple(n for n in payload.notes if n.startswith(POLICY_PREFIX))
    item = ReaderInput(question=question, answer_format=answer_format,
                       evidence=evidence_of(payload),
                       notes=tuple(n for n in payload.notes if n not in told),
                       instructions="\n".join(told))
    answer = DeterministicReader().read(item).answer
    conflict = answer.conflict.model_dump()
    if answer.abstained:
        return {**_abstain(answer.reason or "no answer"), "conflict": conflict}
    return {"answer": answer.answer, "citations": list(answer.citations), "abstain": False,
            "reason": None, "conflict": conflict}


def prose_of(submission: dict[str, Any]) -> str:
    """The submission as the final sentence of an agent with no structured answer: the value
    and its citations, or an abstention that simulator/answers/prose.py recognises."""
    if submission["abstain"]:
        return prose_abstention(submission["reason"] or "no answer")
    return prose_answer(submission["answer"], submission["citations"])


def _abstain(reason: str) -> dict[str, Any]:
    return {"answer": None, "citations": [], "abstain": True, "reason": reason}
