"""The Markdown report: what ``layerrag report`` prints and archives/*/REPORT.md holds."""

from __future__ import annotations

from collections.abc import Sequence

from simulator.report.formatting import count_of, interval, interval_scope, points, proportion
from simulator.report.model import ArmReport, Report, rate
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


def _table(header: Sequence[str], rows: Sequence[Sequence[str]],
           align: str | None = None) -> list[str]:
    align = align or "l" * 2 + "r" * (len(header) - 2)
    marks = [":--" if a == "l" else "--:" for a in align]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(marks) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return [*lines, ""]


def _scenario_modes(arm: ArmReport) -> list[str]:
    header = ["scenario", "mode", "records", "S", "abstained", "grounded", "GF", "safe",
              "provider errors", "prompt hash"]
    rows = [[c.scenario, c.contract_mode, str(c.records), proportion(c.success_rate),
             proportion(c.abstention_rate), proportion(c.grounded_rate),
             proportion(c.groundedness_false_positive_rate),
             proportion(c.safe_resolution_rate), str(c.provider_errors),
             str(c.with_prompt_hash)] for c in arm.scenario_modes]
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
    spec = arm.specificity
    if spec is not None:
        where = (f" ({spec.off_target_scenario})" if spec.off_target_scenario
                 else " (no off-target scenario moved)")
        lines += [f"Specificity margin of schema repair (target {', '.join(spec.targets)}; "
                  f"every other scenario off target): target gain "
                  f"{points(spec.target_gain)} pp − largest absolute off-target change "
                  f"{points(spec.largest_off_target, signed=False)} pp{where} = "
                  f"**{points(spec.margin)} pp**.", ""]
    return lines


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


def _arm(arm: ArmReport, level: str) -> list[str]:
    cov = arm.prompt_coverage
    return [
        f"{level} Strict success by scenario and contract mode", "",
        *_scenario_modes(arm),
        f"{level} Paired repair − strict effects", "", *_effects(arm),
        f"{level} Failure layers", "",
        "Records per first failing layer (`none`: strict success).", "",
        *_failure_layers(arm),
        f"{level} Model and provider averages", "",
        "Supporting context, not a ranking: averages mix clean tasks, repairable faults and "
        "negative controls that should stay unresolved.", "",
        *_averages(arm),
        f"{level} Largest strict-to-repair gains (model × scenario, top 10)", "",
        *_gains(arm),
        f"{level} Prompt hashes", "",
        f"{count_of(cov.with_hash, arm.records)} records have a prompt hash; "
        f"{cov.without_hash} ended before a prompt was built.", "",
    ]


def _notes(report: Report) -> list[str]:
    notes = [
        "S = E ∧ R ∧ G ∧ V (exact answer, required evidence retrieved, citations within the "
        "retrieved set, every tool call schema-valid); an abstention is a strict failure.",
        "GF (groundedness false positive): grounded in a cited retrieved document, yet not S.",
        "safe: a correct answer where the record is answerable, a structured non-answer "
        "where it is not.",
        "Denominators hold every record, provider errors included: a provider failure is a "
        "failed record of the system. Provider errors are counted in their own column; reader "
        "failures show as failure layer `reader`.",
        BOOTSTRAP_NOTES[report.provenance.bootstrap],
    ]
    if report.model_units == 1:
        notes.append("This report has a single model unit, so the model level of the bootstrap "
                     "has one choice: intervals cover task sampling for this model only, not "
                     "model variation.")
    elif report.model_units < FEW_MODEL_UNITS:
        notes.append(f"This report has {report.model_units} model units, fewer than "
                     f"{FEW_MODEL_UNITS}: a bootstrap sees no more model-to-model spread than "
                     "the sampled models show, so intervals may under-cover across models.")
    return ["## Notes", "", *(f"- {n}" for n in notes), ""]


def render_markdown(report: Report) -> str:
    """The whole report as GitHub-flavoured Markdown (deterministic for a given report)."""
    p = report.provenance
    lines = ["# layerrag report", "",
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
    if p.versions:
        lines.append("- versions: " + ", ".join(f"{k} {v}" for k, v in p.versions.items()))
    if p.prompt_template_hashes:
        lines.append("- prompt templates: " + ", ".join(
            f"{k} `{v}`" for k, v in p.prompt_template_hashes.items()))
    lines.append("")
    several = len(report.arms) > 1
    for arm in report.arms:
        if several:
            lines += [f"## Arm `{arm.arm}` ({arm.records} records)", ""]
        lines += _arm(arm, "###" if several else "##")
    lines += _arm_comparison(report)
    lines += _notes(report)
    return "\n".join(lines)


def _arm_comparison(report: Report) -> list[str]:
    if not report.arm_comparison:
        return []
    rows = [[c.arm, c.scenario, c.contract_mode, str(c.records), f"{c.S:.3f}",
             f"{c.safe_resolution:.3f}", str(c.incorrect_interventions)]
            for c in report.arm_comparison]
    return ["## Arms compared", "",
            "Incorrect interventions: non-answers on records the uncontrolled arm answered "
            "strictly correctly (same model, scenario, mode and task).", "",
            *_table(["arm", "scenario", "mode", "records", "S", "safe", "incorrect "
                     "interventions"], rows, "lllrrrr")]
