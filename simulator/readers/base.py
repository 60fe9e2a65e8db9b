"""The reader interface: what a reader is given and what it returns.

A reader turns a question and the evidence that survived the contract and policy steps into
an :class:`~simulator.answers.schema.AgentAnswer`. It never sees labels. Readers are looked
up by name (``deterministic``) or by a provider prefix (``openai:gpt-4o``) in
:data:`readers`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Protocol

from pydantic import BaseModel, ConfigDict

from simulator.answers.schema import AgentAnswer, unknown_answer
from simulator.registry import Registry


class Evidence(BaseModel):
    """One piece of evidence as a reader sees it: prose plus allowlisted metadata."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    doc_id: str
    title: str
    text: str
    status: str | None = None
    effective_year: int | None = None
    version: str | None = None
    domain: str | None = None


Exchange = tuple[str, str]
"""One earlier turn of a conversation: (the user's message, the reply it got)."""


class Conversation(BaseModel):
    """The turn of a support conversation a question comes from: the exchanges before it and
    the user's message itself. A follow-up ("and on the older firmware?") is searched with
    the whole thread but asks something of its own; a reader needs both to answer it
    (simulator/answers/conversation.py has the rules layerrag's own agents follow)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    history: tuple[Exchange, ...] = ()
    """The earlier exchanges of the thread, oldest first."""
    message: str
    """The user's message of this turn, as written."""

    @property
    def user_messages(self) -> tuple[str, ...]:
        """The thread's earlier user messages, oldest first."""
        return tuple(user for user, _ in self.history)

    @property
    def replies(self) -> tuple[str, ...]:
        """What the agent already said in the thread, oldest first."""
        return tuple(reply for _, reply in self.history)


class ReaderInput(BaseModel):
    """Everything a reader is given: the question, its expected format, evidence, notes,
    and, for a turn of a conversation, the conversation."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    question: str
    """The question as it was searched (in a conversation: the thread's user messages)."""
    answer_format: str
    evidence: tuple[Evidence, ...]
    notes: tuple[str, ...] = ()
    instructions: str = ""
    conversation: Conversation | None = None
    """The turn of a conversation the question comes from; None for a single question."""

    def prompt_hash(self, template_version: str) -> str:
        """Hash of the input as a prompt: equal inputs give equal hashes across readers. A
        single question hashes as it did before conversations existed."""
        body = json.dumps([template_version, self.model_dump(
            mode="json", exclude={"conversation"} if self.conversation is None else None)],
            sort_keys=True)
        return hashlib.sha256(body.encode()).hexdigest()[:16]


class ReaderResult(BaseModel):
    """An answer plus what the run store keeps about how it was produced."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    answer: AgentAnswer
    prompt_hash: str
    reader_error: bool = False
    provider_error: bool = False
    agent_error: bool = False
    """The agent under test broke before it answered (simulator/agents/episode.py)."""
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None
    latency_ms: float = 0.0


class Reader(Protocol):
    name: str
    provider: str
    template_version: str

    def read(self, item: ReaderInput) -> ReaderResult: ...


ReaderFactory = Callable[[str], Reader]
"""Builds a reader from its model string (the part after ``provider:``, or the name)."""

readers: Registry[ReaderFactory] = Registry("model")
BUILTIN_PROVIDERS: tuple[str, ...] = ("openai", "anthropic", "google")
"""The chat readers' prefixes (``simulator.readers.chat_clients.PROVIDERS``), held from the
start: they register when a live model is first named, after any plugin."""
readers.reserve("deterministic", *BUILTIN_PROVIDERS)  # both register on first use


__all__ = ["AgentAnswer", "Conversation", "Evidence", "Exchange", "Reader", "ReaderFactory",
           "ReaderInput", "ReaderResult", "readers", "unknown_answer"]
