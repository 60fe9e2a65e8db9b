"""What the agent carries: one record's episode, and the context its steps run in.

Both the LangGraph agent (:mod:`simulator.agent.graph`) and the step functions
(:mod:`simulator.agent.steps`) import these types from here, so neither imports the other.

The episode is a TypedDict rather than a frozen model: the steps, the graph's state and the
scorer all read it as a mapping, and a dict copy per step keeps the graph's per-record
overhead where it was (benchmarks/matrix.py). Steps never modify an episode; they return an
:class:`EpisodeUpdate` that :func:`simulator.agent.steps.merge` applies to a copy.

The middleware and payload types are imported for type checking only: importing them at run
time loads the endpoint (scikit-learn, ~1.5 s), and nothing here needs their classes. Do not
call ``typing.get_type_hints`` on :class:`Episode`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypedDict

from simulator.agent.gate import UNCONTROLLED, Action, PolicyGate
from simulator.agent.pipelines import DEFAULT_PIPELINE
from simulator.agent.trace import PolicyStep, ToolCallTrace
from simulator.corpus.model import AnswerFormat, Task
from simulator.readers.base import AgentAnswer, Conversation, Evidence, Reader, ReaderResult
from simulator.readers.call_metadata import Metadata

if TYPE_CHECKING:
    from middleware.types import FaultContext, ToolCall, ToolResult
    from simulator.endpoints.payload import SearchPayload

Node = Literal["retrieve", "contract", "policy_gate", "generate", "stop", "done"]
"""The step an episode waits for; ``done`` once it has an answer."""


class Episode(TypedDict):
    """One record's state as it moves through the agent's steps."""

    question: str
    answer_format: AnswerFormat
    next: Node
    raw: ToolResult
    """The last search's output on the wire, until the contract step has checked it."""
    calls: list[ToolCallTrace]
    """Every tool call, in order (accumulates)."""
    payloads: list[SearchPayload | None]
    """Each call's contract-checked payload, aligned with ``calls`` (accumulates)."""
    policy_steps: list[PolicyStep]
    """Every gate decision, in order (accumulates)."""
    evidence: list[Evidence]
    """What the reader will see: the last call's hits, or what a policy put instead."""
    notes: list[str]
    instructions: str
    """What a policy asked the reader to do beyond the template (a guiding prompt), or ''."""
    decision: Action | None
    """The gate's final action on the last call."""
    terminated: str | None
    """Why the episode ended without prompting the reader, if it did."""
    answer: AgentAnswer | None
    reader_result: ReaderResult | None
    """Set exactly when a prompt was built and the reader was called."""
    transcript: list[Any] | None
    """A tool-calling agent's calls as it made them, each with its arguments and the message
    it got (``simulator.agents.harness.RecordedCall``), for the record's trajectory; the
    pipeline's calls are its ``calls`` and ``payloads``."""
    final_text: str | None
    """A tool-calling agent's final message text, when it ended in prose."""


class EpisodeUpdate(TypedDict, total=False):
    """What one step changes: the fields of :class:`Episode`, each optional.

    List fields named in ``steps.ACCUMULATE`` are appended to; the others replace.
    """

    question: str
    answer_format: AnswerFormat
    next: Node
    raw: ToolResult
    calls: list[ToolCallTrace]
    payloads: list[SearchPayload | None]
    policy_steps: list[PolicyStep]
    evidence: list[Evidence]
    notes: list[str]
    instructions: str
    decision: Action | None
    terminated: str | None
    answer: AgentAnswer | None
    reader_result: ReaderResult | None
    transcript: list[Any] | None
    final_text: str | None


class ToolInvoker(Protocol):
    """Runs a tool call through a scenario's faults (a :class:`middleware.ToolChain`)."""

    def invoke(self, call: ToolCall, ctx: FaultContext) -> ToolResult: ...


DocumentFetcher = Callable[[str], dict[str, Any] | None]
"""``fetch_document(doc_id)`` through the scenario's chain, so its faults apply there too."""


@dataclass(frozen=True)
class AgentContext:
    """Per-record runtime context: the environment side of one record."""

    task: Task
    """The task as the agent receives it; the context holds no labels (the scorer has them)."""
    chain: ToolInvoker
    """The scenario's tool chain (middleware.build_tool_chain)."""
    contract_mode: str
    reader: Reader
    seed: int = 0
    gate: PolicyGate = UNCONTROLLED
    fetch_document: DocumentFetcher | None = None
    pipeline: str = DEFAULT_PIPELINE
    """``paper`` or ``open`` (simulator.agent.pipelines): the pipeline's own stops."""
    instructions: str = ""
    """Additional instructions for the reader's prompt (a source-priority policy)."""
    metadata: Metadata = ()
    """Run metadata for the record's LangChain calls (simulator/readers/call_metadata.py)."""
    conversation: Conversation | None = None
    """The conversation turn the task comes from (the cases suite), for the reader."""


@dataclass(frozen=True)
class BatchContext:
    """The contexts of a batch of episodes, aligned with the graph state's ``episodes``."""

    records: tuple[AgentContext, ...]
