"""Scenarios are data: a name, the faults that make it, and what a safe agent should do.

The nine reference scenarios are declared as data in :mod:`simulator.vocabulary`
(``SCENARIO_TABLE``) and registered here as :class:`Scenario` objects whose faults resolve
against the fault registry; each injects one fault (``clean`` none). A scenario of several
faults composes them: the first fault is outermost, so its request step runs first and its
response step last (``(schema_drift, partial_timeout)`` drifts a partial payload).
``answerable`` is the scenario table's design intent; the scorer decides per record from
what actually reached the reader. ``turns`` says when the faults act in a conversation; a
scenario that declares none follows the run's ``--fault-turns``.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from middleware.faults import get_fault
from middleware.types import Fault
from simulator.registry import Registry
from simulator.vocabulary import (
    MISLEADING_SCENARIOS,
    SCENARIO_GROUPS,
    SCENARIO_NAMES,
    SCENARIO_TABLE,
    TURN_SCHEDULE,
    Layer,
    ScenarioEntry,
)


class FaultSpec(BaseModel):
    """One fault of a scenario: its registered name and parameters."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    params: dict[str, Any] = Field(default_factory=dict)

    def build(self) -> Fault:
        """Resolve and configure the fault: unknown names and bad parameters fail here."""
        return get_fault(self.name)(**self.params)


class Scenario(BaseModel):
    """A named fault condition and its expectations."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    faults: tuple[FaultSpec, ...] = ()
    layer: Layer
    answerable: bool
    """False when the only safe outcome is a structured non-answer."""
    answerable_note: str = ""
    """The qualification of ``answerable`` ("after repair", "sometimes", "partly")."""
    mitigation: str | None = None
    """The registered name of the policy that claims this scenario's layer (None: none)."""
    description: str
    turns: str | None = Field(default=None, pattern=rf"^(?:{TURN_SCHEDULE})$")
    """When the faults act in a conversation (the cases suite): ``at:K``, ``from:K`` or
    ``always``; None (the nine reference scenarios): the run's ``--fault-turns``."""

    def build_faults(self) -> tuple[Fault, ...]:
        return tuple(spec.build() for spec in self.faults)


scenarios: Registry[Scenario] = Registry("scenario")
scenarios.reserve(*SCENARIO_GROUPS)  # ``--scenarios all|misleading`` name groups


def _from_entry(entry: ScenarioEntry) -> Scenario:
    return Scenario(name=entry.name, layer=entry.layer, answerable=entry.answerable,
                    answerable_note=entry.answerable_note, mitigation=entry.mitigation,
                    description=entry.description, turns=entry.turns,
                    faults=tuple(FaultSpec(name=n, params=dict(p)) for n, p in entry.faults))


for _entry in (*SCENARIO_TABLE, *MISLEADING_SCENARIOS):
    scenarios.add(_entry.name, _from_entry(_entry))



def get_scenario(name: str | Scenario) -> Scenario:
    """The registered scenario ``name`` (a Scenario passes through); typos get a suggestion."""
    return name if isinstance(name, Scenario) else scenarios.get(name)


def compose(name: str, *faults: str | FaultSpec, layer: Layer, answerable: bool,
            mitigation: str | None = None, description: str = "",
            turns: str | None = None) -> Scenario:
    """A custom scenario of several faults (first outermost); checked when built. ``turns``
    schedules them in a conversation (``from:3``: a leak that starts at turn 3)."""
    specs = tuple(f if isinstance(f, FaultSpec) else FaultSpec(name=f) for f in faults)
    return Scenario(name=name, faults=specs, layer=layer, answerable=answerable,
                    mitigation=mitigation, turns=turns,
                    description=description or " + ".join(s.name for s in specs))


def add_scenario(scenario: Scenario) -> Scenario:
    """Register a custom scenario (a plugin's) so runs can name it: ``--scenarios mine``.

    Its faults are built now, so an unknown fault or a bad parameter fails at registration,
    not mid-run; ``--scenarios all`` stays the nine reference scenarios.
    """
    scenario.build_faults()
    return scenarios.add(scenario.name, scenario)


__all__ = ["SCENARIO_NAMES", "FaultSpec", "Scenario", "add_scenario", "compose", "get_scenario",
           "scenarios"]
