"""An agent that answers in prose, as most shipped agents do: no structured final answer.

    layerrag run --agent examples.prose_agent:build_agent --tasks 24 --out runs/prose

It is ``create_agent`` with layerrag's tools and a system prompt, and no ``response_format``:
its run ends with the model's last message, a sentence such as "The return window for a
regular purchase is 30 days [doc_1a2b3c]." layerrag reads that sentence by the task's answer
format: the value the format's extractor finds in it, the ``[doc_id]`` brackets as its
citations, and a sentence like "I cannot find this in the documents" as an abstention.
Prose with no value of the format and no abstention is a reader error, never a pass
("Answers in prose" in docs/agents.md says exactly what is read).

Offline the deterministic driver plays the model and, seeing no ``FinalAnswer`` tool, ends
with such a sentence; with ``--model`` the model writes its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from langchain.agents import create_agent

from simulator.agents import ToolRunContext

SYSTEM_PROMPT = (
    "You answer enterprise policy questions. Search before you answer and answer only from "
    "what the search returned. Reply in one sentence that states the value in the requested "
    "answer format and cites every document you relied on by its doc_id in square brackets, "
    "e.g. 'The return window is 30 days [doc_1a2b3c].' If the documents do not give the "
    "answer, say 'I cannot find this in the documents' and why.")


def build_agent(model: Any, tools: Sequence[Any], middleware: Sequence[Any]) -> Any:
    """A create_agent agent that answers in prose with bracket citations."""
    return create_agent(model, tools=list(tools), system_prompt=SYSTEM_PROMPT,
                        middleware=list(middleware), context_schema=ToolRunContext)
