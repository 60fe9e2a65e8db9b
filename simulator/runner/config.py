"""The configuration of a run: the axes of the matrix and everything that changes a record."""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from simulator.vocabulary import (
    CONTRACT_MODES,
    DEFAULT_AGENT,
    DEFAULT_PIPELINE,
    DEFAULT_RETRIEVER,
    DEFAULT_TOP_K,
    SCENARIO_NAMES,
    SourcePriority,
)

RECORD_TIMEOUTS = {"offline": 60.0, "live": 900.0}
"""Default seconds per record of a tool-calling agent (``--record-timeout``): offline a
record takes milliseconds, so a minute only catches a hung agent; live, a record may make
several model calls, each up to 180 s with retries (docs/agents.md)."""


class RunConfig(BaseModel):
    """Two runs with equal configs produce equal records; the run id is derived from it."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    models: tuple[str, ...] = ("deterministic",)
    scenarios: tuple[str, ...] = SCENARIO_NAMES
    modes: tuple[str, ...] = CONTRACT_MODES
    arms: tuple[str, ...] = ("uncontrolled",)
    tasks: int | None = Field(default=None, ge=1)
    """Use the first N tasks in corpus order (None: all)."""
    task_rows: tuple[int, ...] | None = None
    """Use exactly these task rows (corpus order), e.g. a study's chosen tasks."""
    seed: int = 0
    spec: str | None = None
    """Spec folder; None is the bundled enterprise_v2."""
    retriever: str = DEFAULT_RETRIEVER
    top_k: int = Field(default=DEFAULT_TOP_K, ge=1)
    base_url: str | None = None
    """For OpenAI-compatible local servers."""
    generation: dict[str, object] = Field(default_factory=dict)
    """Model generation settings that change outputs (timeouts and budgets do not)."""
    pipeline: str = DEFAULT_PIPELINE
    """The pipeline's own stops before a prompt: ``paper`` or ``open``
    (simulator/agent/pipelines.py)."""
    agent: str = DEFAULT_AGENT
    """The agent under test: ``pipeline``, ``react`` or a user's ``MODULE:CALLABLE``
    (simulator/agents/registry.py)."""
    source_priority: SourcePriority | None = None
    """RAG-Stress's source-priority instruction for chat readers and agents; None gives
    none. Part of the run id only when set, so runs without it keep theirs."""
    record_timeout: float | None = Field(default=None, gt=0)
    """Seconds one record of a tool-calling agent may take before it is an agent error;
    None takes :data:`RECORD_TIMEOUTS`' default for the run (offline or live). A limit, not
    an output setting: not part of the run id."""
    suite: Literal["enterprise", "cases"] = "enterprise"
    """``enterprise``: one question per record on enterprise_v2 (the paper's matrix);
    ``cases``: multi-turn cases on cases_v1, one record per turn (simulator/conversations).
    Part of the run id only when not the default."""
    fault_turns: str | None = None
    """The cases suite's fault schedule (``at:2``, ``from:2``, ``always``); None for a
    single-turn run (simulator/conversations/schedule.py)."""
    epochs: int = Field(default=1, ge=1)
    """The cases suite: how many times each case runs (pass^k, tau-bench's); with the
    deterministic reader every epoch is the same conversation."""
    arm_definitions: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    """Arm name -> its policies, filled in from the arm registry. Part of the run's
    identity, so resuming with an arm of the same name but other policies is refused."""

    @property
    def record_timeout_seconds(self) -> float:
        """The record time limit in force: the one given, else the default for the run."""
        from simulator.live.options import is_live

        if self.record_timeout is not None:
            return self.record_timeout
        return RECORD_TIMEOUTS["live" if is_live(self.models) else "offline"]

    @field_validator("models", "scenarios", "modes", "arms", "task_rows")
    @classmethod
    def _each_value_once(cls, values: tuple[Any, ...] | None) -> tuple[Any, ...] | None:
        """An axis names each value once: ``clean,clean`` is ``clean``, so the matrix, its
        size and the run id are those of the de-duplicated configuration."""
        return None if values is None else tuple(dict.fromkeys(values))

    @model_validator(mode="before")
    @classmethod
    def _define_arms(cls, data: Any) -> Any:
        if isinstance(data, dict) and not data.get("arm_definitions"):
            from policies.arms import arm_policies

            arms = data.get("arms", ("uncontrolled",))
            data = {**data, "arm_definitions": {a: arm_policies(a) for a in arms}}
        return data

    @model_validator(mode="after")
    def _options_apply_to_the_readers(self) -> RunConfig:
        """Refuse options no chosen reader uses, rather than let them change the run id."""
        from simulator.live.options import is_live

        if self.base_url is not None and not is_live(self.models):
            raise ValueError(f"--base-url {self.base_url!r} applies to live models only; "
                             f"the deterministic reader makes no calls")
        if self.epochs != 1 and self.suite != "cases":
            raise ValueError(f"--epochs {self.epochs}: repeats the cases of --suite cases; "
                             "add --suite cases")
        if self.fault_turns is not None:
            if self.suite != "cases":
                raise ValueError(f"--fault-turns {self.fault_turns}: schedules faults in "
                                 "conversations; add --suite cases")
            from simulator.cases.schedule import parse_schedule

            parse_schedule(self.fault_turns)
        if self.source_priority is not None and not is_live(self.models):
            raise ValueError(f"--source-priority {self.source_priority} applies to chat "
                             f"models only; the deterministic reader reads no instructions")
        return self

    def run_id(self, corpus_hash: str) -> str:
        # The paper pipeline is what every run was before the option existed: leaving it
        # out keeps their run ids, so older run directories still resume.
        # The same for the pipeline agent.
        dropped = {name for name, default in (("pipeline", DEFAULT_PIPELINE),
                                              ("agent", DEFAULT_AGENT),
                                              ("source_priority", None),
                                              ("suite", "enterprise"),
                                              ("fault_turns", None),
                                              ("epochs", 1))
                   if getattr(self, name) == default}
        dropped.add("record_timeout")
        body = json.dumps([self.model_dump(mode="json", exclude=dropped), corpus_hash],
                          sort_keys=True)
        return "run-" + hashlib.sha256(body.encode()).hexdigest()[:12]
