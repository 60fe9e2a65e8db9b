"""The words layerrag is built from, declared once: layers, contract modes, pipelines,
failure layers and the reference scenario table.

Every other module takes these names from here instead of keeping its own copy, so a new
scenario, layer or mode is one edit in one place. The module is deliberately light (the
standard library only): ``--help``, report layout and archive loading import it without
paying for pydantic models, LangChain or scikit-learn. Registries that *build* things from
these words (the fault registry, ``middleware.scenarios``, the policy registry) live with
the code that builds them and check their entries against this vocabulary.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, get_args

Layer = Literal["none", "freshness", "contract", "completeness", "authorization", "session",
                "evidence", "metadata", "integrity"]
"""The operational layer a fault targets (``contract`` is the tool-contract layer; ``none``
is the clean scenario's)."""
LAYERS: tuple[Layer, ...] = get_args(Layer)

MitigationLayer = Literal["freshness", "contract", "completeness", "authorization", "session",
                          "evidence", "metadata", "integrity"]
"""The layers a mitigation policy can claim to repair: every layer but ``none``."""
MITIGATION_LAYERS: tuple[MitigationLayer, ...] = get_args(MitigationLayer)

FailureLayer = Literal["contract", "retrieval", "freshness", "completeness", "authorization",
                       "session", "evidence", "metadata", "integrity", "reader", "abstained",
                       "provider", "agent"]
"""The first layer that explains a strict failure (None when S holds), in diagnosis order
of the report's failure-layer table. ``provider`` and ``agent`` are the run's own failures:
the provider kept failing, or the agent under test broke (raised, looped, timed out, called
none of its tools, was stopped by a limit)."""
FAILURE_LAYERS: tuple[FailureLayer, ...] = get_args(FailureLayer)

Behaviour = Literal["B1", "B2", "B3", "B4", "B5", "B6"]
"""ConInstruct's behaviour labels, for evidence (simulator/scoring/behaviour.py): B1-B4 on
records whose evidence holds a conflict (unacknowledged, clarification, resolved, other),
B5 / B6 on conflict-free ones (no conflict claimed, false alarm)."""
BEHAVIOURS: tuple[Behaviour, ...] = get_args(Behaviour)
DISCLOSURE_CORRECT: frozenset[str] = frozenset({"B2", "B3", "B5"})
"""The labels whose disclosure matches the evidence: a conflict acknowledged, or none
claimed where there is none."""

ContractMode = Literal["strict", "repair"]
"""What the agent makes of a raw tool output: validate it as sent, or repair it (bounded)
and then validate (middleware/contract/)."""
CONTRACT_MODES: tuple[ContractMode, ...] = get_args(ContractMode)

Pipeline = Literal["paper", "open"]
"""Which stops the pipeline makes before a prompt (simulator/agent/pipelines.py)."""
PIPELINES: tuple[Pipeline, ...] = get_args(Pipeline)
DEFAULT_PIPELINE: Pipeline = "paper"

DEFAULT_AGENT = "pipeline"
"""The agent under test unless ``--agent`` names another (simulator/agents/registry.py)."""

DEFAULT_RETRIEVER = "tfidf_domain_validity"
"""The reported retriever (simulator/retrieval/tfidf.py): ``run --retriever`` unless named."""
DEFAULT_TOP_K = 3
"""Hits per search of the reported configuration: ``run --top-k`` unless given."""

Action = Literal["allow", "abstain", "reject", "retry"]
"""What a policy gate may decide after a tool call."""
ACTIONS: tuple[Action, ...] = get_args(Action)


@dataclass(frozen=True)
class ScenarioEntry:
    """One row of the scenario table: a named fault condition and what a safe agent does.

    ``faults`` are (registered fault name, parameters) pairs, outermost first; an empty
    tuple is the clean scenario. ``mitigation`` is the registered name of the policy that
    claims the scenario's layer (``tests/middleware/test_scenarios.py`` checks that it
    exists and declares that layer), or None where no policy claims it.
    """

    name: str
    layer: Layer
    answerable: bool
    """False when the only safe outcome is a structured non-answer."""
    description: str
    faults: tuple[tuple[str, Mapping[str, Any]], ...] = field(default=())
    answerable_note: str = ""
    """The qualification of ``answerable`` ("after repair", "sometimes", "partly")."""
    mitigation: str | None = None
    turns: str | None = None
    """When the faults act in a conversation (the cases suite): ``at:K``, ``from:K`` or
    ``always`` (turns from 1); None: the run's ``--fault-turns``. A single question is one
    turn: the faults always act on it."""


TURN_SCHEDULE = r"always|(?:at|from):[1-9]\d*"
"""The form of a scenario's ``turns`` (simulator/cases/schedule.py reads it)."""


def _one_fault(name: str, layer: Layer, answerable: bool, mitigation: str | None,
               description: str, note: str = "") -> ScenarioEntry:
    """A reference scenario: the fault of the same name with its default parameters."""
    return ScenarioEntry(name=name, layer=layer, answerable=answerable,
                         description=description, faults=((name, MappingProxyType({})),),
                         answerable_note=note, mitigation=mitigation)


SCENARIO_TABLE: tuple[ScenarioEntry, ...] = (
    ScenarioEntry(
        name="clean", layer="none", answerable=True,
        description="No fault: the live index, schema v2, every shard, the caller's session."),
    _one_fault("stale_index", "freshness", False, "freshness_check",
               "The index snapshot predates the current versions: superseded documents come "
               "back looking current."),
    _one_fault("schema_drift", "contract", True, "schema_repair",
               "The payload is renamed and re-typed (schema v2 -> v3); the evidence inside is "
               "intact.", "after repair"),
    _one_fault("partial_timeout", "completeness", True, "bounded_retry",
               "Some shards time out: a subset of hits comes back flagged partial; a retry "
               "recovers some shards.", "sometimes"),
    _one_fault("missing_tool_output", "completeness", False, "evidence_gate",
               "The tool returns nothing usable: no body, an empty body, or a body without "
               "hits."),
    _one_fault("permission_denied", "authorization", False, "access_aware_abstention",
               "The caller loses the required documents' access group: they are withheld and "
               "the payload says access was denied."),
    _one_fault("wrong_session", "session", False, "session_isolation",
               "A session-keyed cache hands back another session's results, with that "
               "session's id."),
    _one_fault("conflicting_evidence", "evidence", True, "conflict_disclosure",
               "An older version of the top hit's policy comes back beside it marked current, "
               "with a note contradicting one."),
    _one_fault("corrupted_metadata", "metadata", True, "metadata_integrity",
               "Status, effective-year and domain metadata are corrupted in the index and "
               "payload.", "partly"),
)
"""The nine reference scenarios, in the paper's table order (DESIGN.md)."""

SCENARIO_NAMES: tuple[str, ...] = tuple(s.name for s in SCENARIO_TABLE)
CLEAN_SCENARIO = "clean"
"""The scenario with no fault: each faulted record's twin (same task, mode, arm) runs in it."""
"""The reference scenarios in table order: the default ``--scenarios`` of a run."""

MISLEADING_SCENARIOS: tuple[ScenarioEntry, ...] = tuple(
    ScenarioEntry(
        name=f"misleading_{position}", layer="integrity", answerable=False,
        description=f"RAG-Stress: the index serves the current document with its answer "
                    f"edited to a designated incorrect value, placed "
                    f"{'in' if position == 'middle' else 'at'} the {position}; the "
                    f"registry keeps the true text.",
        faults=(("misleading_evidence", MappingProxyType({"position": position})),),
        mitigation="evidence_integrity")
    for position in ("beginning", "middle", "end"))
"""RAG-Stress's three Word Positions (docs/misleading.md). Registered and selectable, not in
the default matrix: ``--scenarios misleading`` runs them with their clean twins."""

SCENARIO_GROUPS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "all": SCENARIO_NAMES,
    "misleading": ("clean", *(s.name for s in MISLEADING_SCENARIOS)),
})
"""Named scenario lists ``--scenarios`` accepts: ``all`` (the nine, the default) and
``misleading`` (clean, whose records are the twins MR is conditioned on, and the three
positions)."""

SCENARIO_ORDER: tuple[str, ...] = (*SCENARIO_NAMES, *(s.name for s in MISLEADING_SCENARIOS))
"""Every scenario the vocabulary declares, in table order (the order reports lay out)."""

SCENARIO_LAYER: Mapping[str, Layer] = MappingProxyType(
    {s.name: s.layer for s in (*SCENARIO_TABLE, *MISLEADING_SCENARIOS)})
"""The operational layer each declared scenario's fault lives in."""

SourcePriority = Literal["strict", "soft"]
"""RAG-Stress's source-priority policies, given to chat readers and agents by
``run --source-priority`` (docs/misleading.md); unset, a prompt carries neither."""
SOURCE_PRIORITIES: tuple[SourcePriority, ...] = get_args(SourcePriority)
SOURCE_PRIORITY_INSTRUCTIONS: Mapping[str, str] = MappingProxyType({
    "strict": "Source priority: rely on the evidence documents. Answer with what they state, "
              "even where it differs from what you believe you know.",
    "soft": "Source priority: the evidence documents may be outdated or wrong. Where a "
            "document contradicts what you know to be true, you may rely on your own "
            "knowledge instead of the document.",
})
"""The two instruction texts, in one place: the chat reader puts the chosen one in its
prompt's additional instructions, a tool-calling agent gets it after the task."""


CALLED_NO_TOOL = "the agent called none of the tools it was given"
"""The agent error of a tool-calling agent that finished without calling a tool."""
CALLED_ONLY_OWN_TOOLS = "the agent called only tools layerrag did not give it"
"""How the agent error of one that called only tools of its own begins."""
SEARCH_TOOL_NAME = "search_policies"
"""The endpoint a search reaches, whatever tool the agent called (its trace's tool name)."""
