"""The report: every aggregate of a run or archive, as frozen data that renderers lay out.

Counts are stored; rates are derived (``computed_field``) so a table can never disagree
with its own numbers. Rates are proportions; renderers decide on points or percent.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, computed_field

from simulator.report.behaviour import BehaviourSection
from simulator.report.judge_section import JudgeSection
from simulator.report.misleading import MisleadingSection
from simulator.report.tool_use import ToolUseSection
from simulator.stats.bootstrap import BootstrapKind
from simulator.stats.margin import Specificity
from simulator.stats.paired import Effect
from simulator.stats.scope import interval_caveat


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def rate(count: int, total: int) -> float | None:
    """``count / total``; None for an empty cell, never a silent NaN."""
    return count / total if total else None


class Provenance(_Frozen):
    """Where the numbers come from: the archive header plus the bootstrap settings."""

    run_id: str
    created: str | None
    """None when the report was built from bare rows, without an archive header."""
    corpus_hash: str | None
    archive_version: int | None
    versions: dict[str, str]
    prompt_template_hashes: dict[str, str]
    pipeline: str | None
    """``paper`` or ``open`` (simulator/agent/pipelines.py); None without a header."""
    agent: str = "pipeline"
    """The agent under test (simulator/agents/): the header's, else the rows'."""
    structured_output: dict[str, str] = {}
    """Live chat reader -> the structured-output method its run used (header's)."""
    records: int
    agent_errors: int = 0
    """Records whose agent under test broke (simulator.scoring.outcome.Outcome.agent_error)."""
    first_agent_error: str | None = None
    """The first agent error's reason; known from a run directory, not from an archive
    (archives keep no reasons)."""
    replicates: int
    seed: int
    bootstrap: BootstrapKind = "nested"
    """How the paired intervals resampled (docs/intervals.md)."""


class ScenarioModeCell(_Frozen):
    """One scenario x contract-mode row of an arm. Every record is in every denominator,
    provider and reader errors included; they are counted in their own columns and in no
    numerator (neither abstained nor safe: simulator.scoring.verdict)."""

    scenario: str
    contract_mode: str
    records: int
    successes: int
    abstentions: int
    grounded: int
    groundedness_false_positives: int
    """Grounded in a retrieved document it cites, yet not a strict success."""
    safe_resolutions: int
    provider_errors: int
    agent_errors: int = 0
    """The agent under test broke (raised, looped, timed out, called no tool, was stopped)."""
    reader_errors: int
    """Unparseable output (a reader error), apart from wrong answers."""
    with_prompt_hash: int

    @computed_field  # type: ignore[prop-decorator]
    @property
    def success_rate(self) -> float | None:
        return rate(self.successes, self.records)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def abstention_rate(self) -> float | None:
        return rate(self.abstentions, self.records)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def grounded_rate(self) -> float | None:
        return rate(self.grounded, self.records)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def groundedness_false_positive_rate(self) -> float | None:
        return rate(self.groundedness_false_positives, self.records)

    @computed_field  # type: ignore[prop-decorator]
    @property
    def safe_resolution_rate(self) -> float | None:
        return rate(self.safe_resolutions, self.records)


class FailureLayerRow(_Frozen):
    """How many records of one scenario x mode failed at each layer (``none`` = S held)."""

    scenario: str
    contract_mode: str
    counts: dict[str, int]


class ScenarioEffect(_Frozen):
    """Repair minus strict for one scenario, paired per task."""

    scenario: str
    target_layer: str
    strict_rate: float
    repair_rate: float
    effect: Effect


class ModelAverage(_Frozen):
    """One provider-model unit's success over every scenario, overall and per mode."""

    provider: str
    model: str
    records: int
    successes: int
    records_by_mode: dict[str, int]
    successes_by_mode: dict[str, int]

    @computed_field  # type: ignore[prop-decorator]
    @property
    def success_rate(self) -> float | None:
        return rate(self.successes, self.records)


class ProviderAverage(_Frozen):
    """A provider's success pooled over its models: context, not a ranking."""

    provider: str
    models: int
    records: int
    successes: int

    @computed_field  # type: ignore[prop-decorator]
    @property
    def success_rate(self) -> float | None:
        return rate(self.successes, self.records)


class RepairGain(_Frozen):
    """Strict-to-repair change of one model on one scenario."""

    provider: str
    model: str
    scenario: str
    strict_rate: float
    repair_rate: float
    gain: float


class PromptCoverage(_Frozen):
    """Records with a prompt hash (a prompt was built) and without (the graph stopped first)."""

    with_hash: int
    without_hash: int


class ArmReport(_Frozen):
    """Every table for one arm."""

    arm: str
    records: int
    scenario_modes: list[ScenarioModeCell]
    failure_layer_names: list[str]
    """Column order of ``failure_layers[*].counts``: ``none`` then the layers that occur."""
    failure_layers: list[FailureLayerRow]
    effects: list[ScenarioEffect]
    """Empty unless the arm has both strict and repair records."""
    specificity: Specificity | None
    """Schema repair's layer credit: target schema_drift, every other scenario off target."""
    model_averages: list[ModelAverage]
    provider_averages: list[ProviderAverage]
    top_gains: list[RepairGain]
    prompt_coverage: PromptCoverage


class ArmComparison(_Frozen):
    """One arm x scenario x mode beside the other arms (runs with several arms)."""

    arm: str
    scenario: str
    contract_mode: str
    records: int
    S: float
    safe_resolution: float
    incorrect_interventions: int
    """Non-answers on records the uncontrolled arm answered strictly correctly (0 for it)."""
    provider_errors: int
    agent_errors: int = 0
    reader_errors: int


class Report(_Frozen):
    """A whole report: provenance, then one :class:`ArmReport` per arm."""

    provenance: Provenance
    model_units: int
    """Distinct provider-model units; with one, the bootstrap's model level has one choice."""
    policy_units: int
    """Distinct policy units, the clusters the bootstrap resamples inside the model level."""
    arms: list[ArmReport]
    arm_comparison: list[ArmComparison] = []
    """Empty unless the run has more than one arm."""
    behaviour: BehaviourSection | None = None
    """ConInstruct behaviour labels per cell, when the rows carry them (report/behaviour.py)."""
    misleading: MisleadingSection | None = None
    """MR and its contrasts, when the rows hold misleading scenarios (report/misleading.py)."""
    tool_use: ToolUseSection | None = None
    """A tool-calling agent's tool use per cell, known from a run directory, not from an
    archive (report/tool_use.py)."""
    judge: JudgeSection | None = None
    """A judge's stored judgments of the run, when the report is asked for them
    (``--judge NAME``, report/judge_section.py)."""
    incomplete: str | None = None
    """``incomplete: N of M records; cells missing: ...`` when the rows are fewer than the
    run was made to hold (simulator/runner/completeness.py); None when whole or unknown."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def interval_caveat(self) -> str | None:
        """The paired intervals' caveat: ``task sampling for this model only`` with one model
        unit, ``may under-cover across models`` with fewer than ten, else None."""
        return interval_caveat(self.model_units)
