"""Scenarios are data: a name, the faults that make it, and what a safe agent should do.

The nine reference scenarios inject one fault each (``clean`` none). A scenario of several
faults composes them: the first fault is outermost, so its request step runs first and its
response step last (``(schema_drift, partial_timeout)`` drifts a partial payload).
``answerable`` is the scenario table's design intent; the scorer decides per record from
what actually reached the reader.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from middleware.faults import get_fault
from middleware.types import Fault, Layer
from simulator.registry import Registry


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
    """The mitigation that should help (None for clean)."""
    description: str

    def build_faults(self) -> tuple[Fault, ...]:
        return tuple(spec.build() for spec in self.faults)


scenarios: Registry[Scenario] = Registry("scenario")


def _add(name: str, layer: Layer, answerable: bool, mitigation: str | None, description: str,
         note: str = "", *faults: FaultSpec) -> None:
    scenarios.add(name, Scenario(name=name, faults=faults or (FaultSpec(name=name),),
                                 layer=layer, answerable=answerable, answerable_note=note,
                                 mitigation=mitigation, description=description))


scenarios.add("clean", Scenario(
    name="clean", faults=(), layer="none", answerable=True, mitigation=None,
    description="No fault: the live index, schema v2, every shard, the caller's session."))
_add("stale_index", "freshness", False, "freshness_validation",
     "The index snapshot predates the current versions: superseded documents come back "
     "looking current.")
_add("schema_drift", "contract", True, "schema_repair",
     "The payload is renamed and re-typed (schema v2 -> v3); the evidence inside is intact.",
     "after repair")
_add("partial_timeout", "completeness", True, "bounded_retry",
     "Some shards time out: a subset of hits comes back flagged partial; a retry recovers "
     "some shards.", "sometimes")
_add("missing_tool_output", "completeness", False, "abstain",
     "The tool returns nothing usable: no body, an empty body, or a body without hits.")
_add("permission_denied", "authorization", False, "access_aware_abstention",
     "The caller loses the required documents' access group: they are withheld and the "
     "payload says access was denied.")
_add("wrong_session", "session", False, "session_isolation",
     "A session-keyed cache hands back another session's results, with that session's id.")
_add("conflicting_evidence", "evidence", True, "validity_aware_reading",
     "Current and superseded versions come back together, with a note contradicting one.")
_add("corrupted_metadata", "metadata", True, "metadata_integrity_check",
     "Status, effective-year and domain metadata are corrupted in the index and payload.",
     "partly")

SCENARIO_NAMES: tuple[str, ...] = tuple(scenarios.names())
"""The nine reference scenarios, in table order."""


def get_scenario(name: str | Scenario) -> Scenario:
    """The registered scenario ``name`` (a Scenario passes through); typos get a suggestion."""
    return name if isinstance(name, Scenario) else scenarios.get(name)


def compose(name: str, *faults: str | FaultSpec, layer: Layer, answerable: bool,
            mitigation: str | None = None, description: str = "") -> Scenario:
    """A custom scenario of several faults (first outermost); checked when built."""
    specs = tuple(f if isinstance(f, FaultSpec) else FaultSpec(name=f) for f in faults)
    return Scenario(name=name, faults=specs, layer=layer, answerable=answerable,
                    mitigation=mitigation,
                    description=description or " + ".join(s.name for s in specs))
