"""What a tool-calling agent under test is told: a system prompt and one user message per
task.

The user message carries the question and the answer format the scorer expects ("a
duration", "a role"), as a real task description would; never a label. The deterministic
tool-calling model reads the format back from it with :func:`parse_task_message`.
"""

from __future__ import annotations

import re

from simulator.corpus.model import Task

SYSTEM_PROMPT = (
    "You answer questions about company policy. Use search_policies to find the governing "
    "policy text and fetch_document to check a document's registry record (status, "
    "effective year, superseded_by) when its validity matters. Answer only from documents a "
    "tool returned to you, cite the doc_id of every document your answer relies on, and "
    "give the value in the requested answer format. If the tools return nothing usable, "
    "deny access, or the evidence does not state the value, abstain and say why.")
"""The react agent's system prompt (part of its template version)."""

PROMPT_VERSION = "react-prompt-1"

_FORMAT_LINE = re.compile(r"^Answer format: (?P<format>[a-z][a-z0-9_]*(?: \(.*\))?)[ \t]*$",
                          re.MULTILINE)
"""A format's name, or its descriptor with a choice's options or a declared pattern."""


def task_message(task: Task, instructions: str = "") -> str:
    """The user message for ``task``: the question, then its answer format, then any
    additional instructions (a source-priority policy) after a blank line."""
    extra = f"\n\n{instructions.strip()}" if instructions.strip() else ""
    return f"{task.question}\nAnswer format: {task.answer_format}{extra}"


def parse_task_message(text: str) -> tuple[str, str | None]:
    """(question, answer format) of a message made by :func:`task_message`; the format is
    None for any other message, whose whole text is then the question."""
    found = _FORMAT_LINE.search(text)
    if found is None:
        return text.strip(), None
    return text[: found.start()].strip(), found.group("format")
