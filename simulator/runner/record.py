"""One scored record per (model, scenario, contract mode, arm, task): the unit of a run."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from simulator.cases.record import CaseTurn
from simulator.scoring.outcome import Outcome
from simulator.vocabulary import DEFAULT_AGENT


class RecordKey(BaseModel):
    """The cell a record belongs to; unique within a run."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    model: str
    scenario: str
    contract_mode: str
    arm: str
    task_id: str
    agent: str = DEFAULT_AGENT

    def as_str(self) -> str:
        """The store key. The pipeline's keys have no agent part, as before agents existed,
        so older run directories still resume."""
        parts = (self.model, self.scenario, self.contract_mode, self.arm, self.task_id)
        return "|".join(parts if self.agent == DEFAULT_AGENT else (self.agent, *parts))


class RunRecord(Outcome):
    """One cell's :class:`~simulator.scoring.outcome.Outcome` (the scored fields, declared
    there once) with the cell's identity and what the run saw. Archives export an
    allowlisted projection only (simulator/archive/row.py)."""

    run_id: str
    model: str
    provider: str
    """``local`` for the deterministic reader, else the provider name (openai, ...)."""
    scenario: str
    contract_mode: str
    arm: str
    agent: str = DEFAULT_AGENT
    """The agent under test (simulator/agents/): ``pipeline``, ``react`` or a user's."""
    source_priority: str | None = None
    """The source-priority instruction the reader was given (``strict``, ``soft``), or None
    (simulator.vocabulary.SOURCE_PRIORITY_INSTRUCTIONS)."""
    task_id: str
    task_row: int
    unit: int
    unit_id: str
    variant: int
    domain: str
    prompt_hash: str | None
    """Hash of the reader's input; None when the graph ended before building a prompt."""
    answer: str | None
    citations: tuple[str, ...] = ()
    reason: str | None = None
    retrieved_doc_ids: tuple[str, ...] = ()
    trace: dict[str, Any] = Field(default_factory=dict)
    latency_ms: float = 0.0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None
    case: CaseTurn | None = None
    """A case turn's case, turn, memory and reply (simulator/cases/record.py); None for a
    single-turn record."""
    trajectory: dict[str, Any] | None = Field(default=None, exclude=True, repr=False)
    """What the agent was asked, did, saw and answered, and why it scored as it did
    (simulator/runner/trajectory/): evaluator-side. Never in the record's own JSON
    (``exclude``): the run store writes it to its own table, and an archive row, an
    allowlist of the other fields, cannot hold it. None on records read back from a store."""

    @property
    def key(self) -> RecordKey:
        return RecordKey(model=self.model, scenario=self.scenario,
                         contract_mode=self.contract_mode, arm=self.arm, task_id=self.task_id,
                         agent=self.agent)
