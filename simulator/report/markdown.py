"""The Markdown report: what ``layerrag report`` prints and archives/*/REPORT.md holds.

Two lengths from one list of sections. The default is concise: per arm one table with a row
per scenario (:mod:`simulator.report.summary`), the specificity margin, the arms side by
side when there are several, and one-line notes. ``--full`` (``full=True``) prints every
table. A section is one :class:`Section` line in :data:`ARM_SECTIONS` (per arm) or
:data:`REPORT_SECTIONS` (once, after the arms), saying in which length it appears.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, NamedTuple

from simulator.report.behaviour import render_behaviour
from simulator.report.formatting import (
    count_of,
    interval,
    interval_scope,
    markdown_table,
    points,
    proportion,
)
from simulator.report.judge_section import render_judge
from simulator.report.misleading import render_misleading
from simulator.report.model import ArmReport, Provenance, Report, rate
from simulator.report.summary import arm_totals, scenario_summary
from simulator.report.tool_use import render_tool_use
from simulator.stats.bootstrap import BootstrapKind
from simulator.stats.scope import FEW_MODEL_UNITS

PAIRING_NOTE = ("Repair − strict differences are paired per provider, model, scenario, arm and "
                "task row. ")
BOOTSTRAP_NOTES: dict[BootstrapKind, str] = {
    "nested": PAIRING_NOTE + (
        "Intervals are 95 % percentile intervals of a hierarchical bootstrap: each replicate "
        "resamples model units (provider × model) with replacement, then, within each drawn "
        "model unit, resamples policy units with replacement, keeping a unit's question "
        "variants together (they are correlated coverage, not independent samples)."),
    "crossed": PAIRING_NOTE + (
        "Intervals are 95 % percentile intervals of a crossed bootstrap: each replicate "
        "resamples model units (provider × model) and policy units independently, with "
        "replacement, and keeps every (model unit, policy unit) cell of the drawn pairs, a "
        "unit's question variants together, so difficulty the models share through common "
        "policy units counts as variance."),
}
"""The Notes' description of each bootstrap (docs/intervals.md)."""


_table = markdown_table


def _scenario_modes(arm: ArmReport) -> list[str]:
    header = ["scenario", "mode", "records", "S", "abstained", "grounded", "GF", "safe",
              "provider errors", "agent errors", "unparseable", "prompt hash"]
    rows = [[c.scenario, c.contract_mode, str(c.records), proportion(c.success_rate),
             proportion(c.abstention_rate), proportion(c.grounded_rate),
             proportion(c.groundedness_false_positive_rate),
             proportion(c.safe_resolution_rate), str(c.provider_errors),
             str(c.agent_errors), str(c.reader_errors), str(c.with_prompt_hash)]
            for c in arm.scenario_modes]
    return _table(header, rows)


def _effects(arm: ArmReport) -> list[str]:
    if not arm.effects:
        return ["Needs both strict and repair records for the same tasks; this arm has no "
                "such pair.", ""]
    header = ["scenario", "target layer", "strict S", "repair S", "Δ (pp)", "95 % interval",
              "pairs"]
    rows = [[e.scenario, e.target_layer, proportion(e.strict_rate), proportion(e.repair_rate),
             points(e.effect.estimate), interval(e.effect.low, e.effect.high),
             str(e.effect.pairs)] for e in arm.effects]
    lines = [*_table(header, rows),
             f"95 % intervals: {interval_scope([e.effect for e in arm.effects])}.", ""]
    return [*lines, *_margin(arm)]


def _margin(arm: ArmReport) -> list[str]:
    """The specificity margin of schema repair, or why this arm has none to show.

    It credits the repair contract mode with what it adds over strict. In an arm that
    repairs drifted payloads itself (its schema_repair policy), strict mode already
    succeeds on the target and the modes cannot differ there: a 0.0 pp margin would read as
    repair failing, so the line says why instead.
    """
    spec = arm.specificity
    if spec is None:
        return []
    strict = [e.strict_rate for e in arm.effects if e.scenario in spec.targets]
    targets = ", ".join(spec.targets)
    if round(spec.target_gain, 12) == 0 and strict and min(strict) > 0:
        return [f"No specificity margin for schema repair in this arm: strict mode already "
                f"succeeds on {targets} (S {proportion(min(strict))}, as with repair), so the "
                "arm repairs drifted payloads itself (a policy such as schema_repair) and the "
                "repair contract mode has nothing to add; `layerrag credit --policy "
                "schema_repair` measures the policy.", ""]
    where = (f" ({spec.off_target_scenario})" if spec.off_target_scenario
             else " (no off-target scenario moved)")
    return [f"Specificity margin of schema repair (target {targets}; every other scenario "
            f"off target): target gain {points(spec.target_gain)} pp − largest absolute "
            f"off-target change {points(spec.largest_off_target, signed=False)} pp{where} = "
            f"**{points(spec.margin)} pp**.", ""]


def _failure_layers(arm: ArmReport) -> list[str]:
    header = ["scenario", "mode", *arm.failure_layer_names]
    rows = [[r.scenario, r.contract_mode, *(str(r.counts[n]) for n in arm.failure_layer_names)]
            for r in arm.failure_layers]
    return _table(header, rows)


def _averages(arm: ArmReport) -> list[str]:
    modes = sorted({m for a in arm.model_averages for m in a.records_by_mode},
                   key=lambda m: (m != "strict", m != "repair", m))
    header = ["provider", "model", "records", "S", *(f"S {m}" for m in modes)]
    rows = [[a.provider, a.model, str(a.records), proportion(a.success_rate),
             *(proportion(rate(a.successes_by_mode.get(m, 0), a.records_by_mode.get(m, 0)))
               for m in modes)] for a in arm.model_averages]
    lines = _table(header, rows)
    if len(arm.provider_averages) > 1:
        lines += _table(["provider", "models", "records", "S"],
                        [[p.provider, str(p.models), str(p.records),
                          proportion(p.success_rate)] for p in arm.provider_averages],
                        align="lrrr")
    return lines


def _gains(arm: ArmReport) -> list[str]:
    if not arm.top_gains:
        return ["No model has both strict and repair records for a scenario.", ""]
    header = ["provider", "model", "scenario", "strict S", "repair S", "gain (pp)"]
    rows = [[g.provider, g.model, g.scenario, proportion(g.strict_rate),
             proportion(g.repair_rate), points(g.gain)] for g in arm.top_gains]
    return _table(header, rows, align="lll" + "rrr")


def _prompt_hashes(arm: ArmReport) -> list[str]:
    cov = arm.prompt_coverage
    return [f"{count_of(cov.with_hash, arm.records)} records have a prompt hash; "
            f"{cov.without_hash} ended before a prompt was built.", ""]


def _summary(arm: ArmReport) -> list[str]:
    scope = ([f"95 % intervals: {interval_scope([e.effect for e in arm.effects])}.", ""]
             if arm.effects else [])
    return [*scenario_summary(arm), *scope, *_margin(arm)]


def _layer_note(arm: ArmReport) -> list[str]:
    note = "Records per first failing layer (`none`: strict success)."
    if "unparseable" in arm.failure_layer_names:
        note += (" `unparseable`: reader errors (output outside the answer contract), apart "
                 "from `reader`: parsed answers that were wrong.")
    return [note, "", *_failure_layers(arm)]


def _model_averages(arm: ArmReport) -> list[str]:
    return ["Supporting context, not a ranking: averages mix clean tasks, repairable faults "
            "and negative controls that should stay unresolved.", "", *_averages(arm)]


Length = Literal["concise", "full", "both"]


class Section(NamedTuple):
    """One part of the Markdown report: a heading, its body, and the length it is in."""

    title: str
    body: Callable[[ArmReport], list[str]]
    shown: Length = "full"
    """``concise`` (the default report only), ``full`` (``--full`` only) or ``both``."""


ARM_SECTIONS: tuple[Section, ...] = (
    Section("Strict success and safe resolution by scenario", _summary, "concise"),
    Section("Strict success by scenario and contract mode", _scenario_modes),
    Section("Paired repair − strict effects", _effects),
    Section("Failure layers", _layer_note),
    Section("Model and provider averages", _model_averages),
    Section("Largest strict-to-repair gains (model × scenario, top 10)", _gains),
    Section("Prompt hashes", _prompt_hashes),
)
"""Every arm's sections, in order: adding one is one line here."""


class ReportSection(NamedTuple):
    """A part printed once, after the arms (``[]`` from ``body`` prints nothing)."""

    body: Callable[[Report], list[str]]
    shown: Length = "full"


def _shown(shown: Length, full: bool) -> bool:
    return shown == "both" or (shown == "full") == full


def _arm(arm: ArmReport, level: str, full: bool) -> list[str]:
    lines: list[str] = []
    for section in ARM_SECTIONS:
        if _shown(section.shown, full):
            lines += [f"{level} {section.title}", "", *section.body(arm)]
    return lines


SAFE_NOTE = ("safe (safe resolution): S where the record was answerable (the required current "
             "documents reached the agent intact: valid after the contract step, for the "
             "caller's own session), a structured non-answer (abstain or reject, with a "
             "reason) where it was not; so a strict schema_drift record whose payload the "
             "contract rejected is safe when it abstains. A provider error, an agent error or "
             "an unparseable answer is never safe.")
"""What "safe" counts (simulator.scoring.metrics.safe_resolution and answerable)."""

ERRORS_NOTE = ("Denominators hold every record, errors included. A provider error (the call "
               "failed after every retry) and an unparseable answer (a reader error: invalid "
               "JSON, off the answer schema, or neither an answer nor an abstention) are "
               "counted in their own columns and in no numerator: neither answered, "
               "abstained nor safe. So is an agent error (the agent under test raised, "
               "exceeded its step budget or time limit, called none of its tools or was "
               "stopped by a limit), never S either. In the failure-layer table they are "
               "`provider`, `agent` and `unparseable`; `reader` counts parsed answers that "
               "were wrong.")


def _definitions() -> list[str]:
    return [
        "S = E ∧ R ∧ G ∧ V (exact answer, required evidence retrieved, citations within the "
        "retrieved set, every tool call schema-valid); an abstention is a strict failure.",
        "GF (groundedness false positive): grounded in a cited retrieved document, yet not S.",
        SAFE_NOTE,
        ERRORS_NOTE,
    ]


def _notes(report: Report, full: bool) -> list[str]:
    notes = _definitions()
    if not full:
        notes.append("Every table (scenario × mode detail, paired effects with their pairs, "
                     "failure layers, model averages, largest gains, prompt hashes) and the "
                     "bootstrap's design: add `--full`.")
        return ["## Notes", "", *(f"- {n}" for n in notes), ""]
    notes.append(BOOTSTRAP_NOTES[report.provenance.bootstrap])
    if report.model_units == 1:
        notes.append("This report has a single model unit, so the model level of the bootstrap "
                     "has one choice: intervals cover task sampling for this model only, not "
                     "model variation.")
    elif report.model_units < FEW_MODEL_UNITS:
        notes.append(f"This report has {report.model_units} model units, fewer than "
                     f"{FEW_MODEL_UNITS}: a bootstrap sees no more model-to-model spread than "
                     "the sampled models show, so intervals may under-cover across models.")
    return ["## Notes", "", *(f"- {n}" for n in notes), ""]


def agent_error_line(p: Provenance) -> list[str]:
    """The report's first line when some records are agent errors: how many, and why the
    first one broke (``12 of 432 records are agent errors: the agent raised ...``)."""
    if not p.agent_errors:
        return []
    why = p.first_agent_error or "the archive keeps no reasons; `layerrag report RUN_DIR` says"
    return [f"**{p.agent_errors} of {p.records} records are agent errors** (the agent under "
            f"test broke; none counts as safe): {why}", ""]


def _provenance(report: Report, full: bool) -> list[str]:
    p = report.provenance
    title = f"# layerrag report — {report.incomplete}" if report.incomplete else "# layerrag report"
    lines = [title, "", *agent_error_line(p),
             f"- run: `{p.run_id}`; created {p.created or '—'}; corpus `{p.corpus_hash or '—'}`; "
             f"archive version {p.archive_version if p.archive_version is not None else '—'}",
             f"- records: {p.records}; model units: {report.model_units}; policy units: "
             f"{report.policy_units}; arms: "
             f"{', '.join(a.arm for a in report.arms) or '—'}",
             f"- bootstrap: {p.bootstrap}, {p.replicates} replicates, seed {p.seed}"]
    if "," in p.agent:
        lines.append(f"- agents: {p.agent.replace(',', ', ')}, side by side: each arm is "
                     "labelled agent/arm, paired on the same tasks (docs/agents.md)")
    elif p.agent != "pipeline":
        lines.append(f"- agent: {p.agent} (a tool-calling agent, scored from the tool calls "
                     "it made and the results it saw; docs/agents.md)")
    if p.pipeline == "open":
        lines.append("- pipeline: open (no built-in stop before a prompt: missing, rejected "
                     "and denied tool output reach the reader)")
    if p.structured_output:
        lines.append("- structured output: " + ", ".join(
            f"{model} {method}" for model, method in p.structured_output.items()))
    if full and p.versions:
        lines.append("- versions: " + ", ".join(f"{k} {v}" for k, v in p.versions.items()))
    if full and p.prompt_template_hashes:
        lines.append("- prompt templates: " + ", ".join(
            f"{k} `{v}`" for k, v in p.prompt_template_hashes.items()))
    return [*lines, ""]


def render_markdown(report: Report, *, full: bool = False) -> str:
    """The report as GitHub-flavoured Markdown (deterministic for a given report): concise
    by default, every table with ``full``."""
    lines = _provenance(report, full)
    several = len(report.arms) > 1
    for arm in report.arms:
        if several:
            lines += [f"## Arm `{arm.arm}` ({arm.records} records)", ""]
        lines += _arm(arm, "###" if several else "##", full)
    for section in REPORT_SECTIONS:
        if _shown(section.shown, full):
            lines += section.body(report)
    lines += _notes(report, full)
    return "\n".join(lines)


def _reference(report: Report) -> str:
    """The arm the comparison pairs the others with: listed first (report/build.py)."""
    return report.arm_comparison[0].arm


def _arm_comparison(report: Report) -> list[str]:
    if not report.arm_comparison:
        return []
    rows = [[c.arm, c.scenario, c.contract_mode, str(c.records), f"{c.S:.3f}",
             f"{c.safe_resolution:.3f}", str(c.incorrect_interventions),
             str(c.provider_errors), str(c.agent_errors), str(c.reader_errors)]
            for c in report.arm_comparison]
    return ["## Arms compared", "",
            f"Incorrect interventions: non-answers on records the reference arm "
            f"`{_reference(report)}` answered strictly correctly (same model, scenario, mode "
            "and task).", "",
            *_table(["arm", "scenario", "mode", "records", "S", "safe", "incorrect "
                     "interventions", "provider errors", "agent errors", "unparseable"], rows,
                     "lllrrrrrrr")]


def _arm_summary(report: Report) -> list[str]:
    if not report.arm_comparison:
        return []
    return ["## Arms compared", "",
            "Over every scenario and mode of each arm. Incorrect interventions: non-answers "
            f"on records the reference arm `{_reference(report)}` answered strictly correctly "
            "(same model, scenario, mode and task).", "", *arm_totals(report)]


REPORT_SECTIONS: tuple[ReportSection, ...] = (
    ReportSection(_arm_summary, "concise"),
    ReportSection(_arm_comparison),
    ReportSection(lambda report: render_behaviour(report.behaviour, full=False), "concise"),
    ReportSection(lambda report: render_behaviour(report.behaviour, full=True), "full"),
    ReportSection(lambda report: render_misleading(report.misleading), "both"),
    ReportSection(lambda report: render_tool_use(report.tool_use, report.provenance.agent,
                                                 full=False), "concise"),
    ReportSection(lambda report: render_tool_use(report.tool_use, report.provenance.agent,
                                                 full=True), "full"),
    ReportSection(lambda report: render_judge(report.judge), "both"),
)
"""Parts printed once, after the arms and before the notes: adding one is one line here."""
