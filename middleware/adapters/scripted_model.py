"""A deterministic chat model for offline agent tests and examples.

``SearchThenAnswerModel`` searches once, then answers from the search result: its output is a
pure function of the messages it is given, so it is safe under concurrency and needs no
provider. It implements ``bind_tools`` (``create_agent`` needs it), which LangChain's fake
chat models do not.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool


class ToolBindingChatModel(BaseChatModel):
    """A chat model that receives its bound tools (OpenAI format) in ``_generate``'s
    ``tools`` argument: what a deterministic model needs to decide which tool to call."""

    def bind_tools(self, tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
                   *, tool_choice: str | None = None, **kwargs: Any
                   ) -> Runnable[LanguageModelInput, AIMessage]:
        return self.bind(tools=[convert_to_openai_tool(t) for t in tools],
                         tool_choice=tool_choice, **kwargs)


class SearchThenAnswerModel(ToolBindingChatModel):
    """Emit one ``search_policies`` call for the user's question, then a final answer."""

    model_name: str = "search-then-answer-v1"
    tool_name: str = "search_policies"

    @property
    def _llm_type(self) -> str:
        return "deterministic"

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None,
                  run_manager: Any = None, tools: list[dict[str, Any]] | None = None,
                  **kwargs: Any) -> ChatResult:
        last = messages[-1]
        tool_names = {t.get("function", {}).get("name") for t in tools or []}
        if isinstance(last, HumanMessage) and self.tool_name in tool_names:
            digest = hashlib.sha256(f"{len(messages)}|{last.content}".encode()).hexdigest()
            message = AIMessage(content="", tool_calls=[{
                "name": self.tool_name, "args": {"query": str(last.content)},
                "id": f"call_{digest[:16]}", "type": "tool_call"}])
        else:
            text = answer_from(last.content) if isinstance(last, ToolMessage) else "unknown"
            message = AIMessage(content=text)
        words = sum(len(str(m.content).split()) for m in messages)
        message.usage_metadata = {"input_tokens": words, "output_tokens":
                                  len(str(message.content).split()) + 1,
                                  "total_tokens": words + len(str(message.content).split()) + 1}
        return ChatResult(generations=[ChatGeneration(message=message)])


def answer_from(content: Any) -> str:
    """The final answer for a search result: cite the top hit, or say why there is none."""
    try:
        payload = json.loads(content) if isinstance(content, str) and content.strip() else None
    except ValueError:
        payload = None
    if not isinstance(payload, dict) or ("hits" not in payload and "results" not in payload):
        return "I cannot answer: the search returned nothing usable."
    hits = payload.get("hits")
    if not isinstance(hits, list):
        version = payload.get("schema_version", "?")
        return f"I cannot answer: the search result has an unexpected shape (schema {version})."
    if not hits:
        if payload.get("access", {}).get("denied"):
            return "I cannot answer: access to the relevant documents was denied."
        return "I cannot answer: the search found no documents."
    top = hits[0]
    first = str(top.get("text", "")).split(". ")[0].rstrip(".")
    return f"{first}. [{top.get('doc_id')}]"
