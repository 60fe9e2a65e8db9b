"""The per-run fault plan a LangChain agent carries in its runtime ``context``.

Middleware and tool instances are shared by every run of an agent, so nothing about one run
may live on them: the scenario, the task, the seed and the caller's session travel in
``context`` instead. The plan is read by the agent's own middleware too, so it carries nothing
evaluator-only: the faults aim without labels (middleware.types.FaultContext).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from middleware.scenarios import Scenario
from middleware.types import FaultContext
from simulator.corpus.model import SessionContext, Task
from simulator.endpoints.environment import PolicyEnvironment

PLAN_ATTRIBUTE = "fault_plan"


class FaultPlan(BaseModel):
    """Which scenario to inject into one agent run, and for whom."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    scenario: str | Scenario = "clean"
    """A registered scenario name, or a composed :class:`Scenario`."""
    task: Task | None = None
    """The task the agent was given (public: question, answer format, session)."""
    session: SessionContext | None = None
    """The caller's session (default: the task's)."""
    seed: int = 0
    attempt: int = Field(default=0, ge=0)
    """Attempt number of the run's first tool call; later calls count up from it."""

    @property
    def caller(self) -> SessionContext | None:
        return self.session or (self.task.session if self.task is not None else None)

    def fault_context(self, calls_before: int = 0, *,
                      environment: PolicyEnvironment | None = None,
                      caller: SessionContext | None = None) -> FaultContext:
        """The context of the run's next tool call.

        ``environment``: the one behind the tool; ``caller``: the session the tool binds, if
        it binds its own (default: the plan's caller).
        """
        return FaultContext(task=self.task, seed=self.seed,
                            attempt=self.attempt + calls_before,
                            caller=caller or self.caller, environment=environment)


def plan_from_context(context: Any) -> FaultPlan | None:
    """The FaultPlan in a runtime context: the context itself, its ``fault_plan`` attribute
    or key, or None (then nothing is injected)."""
    if isinstance(context, FaultPlan):
        return context
    if isinstance(context, Mapping):
        found = context.get(PLAN_ATTRIBUTE)
    else:
        found = getattr(context, PLAN_ATTRIBUTE, None)
    return found if isinstance(found, FaultPlan) else None
