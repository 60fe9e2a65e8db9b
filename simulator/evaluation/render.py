"""Markdown for the focused study, the arms comparison and layer credit.

Number formats come from :mod:`simulator.report.formatting`, so these tables agree with
``layerrag report``.
"""

from __future__ import annotations

from collections.abc import Sequence

from simulator.evaluation.credit import METRICS, VERDICT_TEXT, LayerCredit
from simulator.evaluation.study import FocusedStudy
from simulator.report.formatting import caveat_clause, interval, interval_scope, points
from simulator.stats import ordered_scenarios, target_layer
from simulator.stats.arms import ArmCell
from simulator.vocabulary import DEFAULT_AGENT, DEFAULT_PIPELINE


def table(header: Sequence[str], rows: Sequence[Sequence[str]], left: int = 2) -> list[str]:
    marks = [":--" if i < left else "--:" for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(marks) + "|"]
    return [*lines, *("| " + " | ".join(row) + " |" for row in rows), ""]


def outcome(cell: ArmCell | None) -> str:
    """``S a/n`` over answerable records, ``safe b/m`` over the others, as Table 7 shows."""
    if cell is None:
        return "—"
    parts = []
    if cell.answerable:
        parts.append(f"S {cell.answerable_successes}/{cell.answerable}")
    unsafe = cell.records - cell.answerable
    if unsafe:
        parts.append(f"safe {cell.unsafe_safe}/{unsafe}")
    parts += [f"{n} {what}" for n, what in ((cell.provider_errors, "provider errors"),
                                             (cell.agent_errors, "agent errors"),
                                             (cell.reader_errors, "unparseable")) if n]
    return " · ".join(parts)


def study_markdown(study: FocusedStudy) -> str:
    arms = [a.arm for a in study.arms]
    scenarios = ordered_scenarios(c.scenario for c in study.cells)
    n_cells = sum(a.records for a in study.arms)
    lines = [f"# Focused study: {len(study.task_rows)} tasks x {len(scenarios)} conditions x "
             f"{len(arms)} arms = {n_cells} cells (model {study.model}, strict mode, "
             f"{_who(study.agent, study.pipeline)})", "",
             "Tasks: " + ", ".join(f"row {r} ({d})" for r, d in
                                   zip(study.task_rows, study.domains, strict=True)) + ".",
             f"Selection rule: {study.selection_rule}.", ""]
    by = {(c.arm, c.scenario): c for c in study.cells}
    rows = [[s, target_layer(s), *(outcome(by.get((a, s))) for a in arms)] for s in scenarios]
    lines += table(["condition", "layer", *arms], rows)
    lines += ["`S a/n`: strict successes among the condition's answerable records (the "
              "intact required evidence reached the agent); `safe b/m`: structured "
              "non-answers among the records that were not answerable (unsafe). Abstention "
              "is a strict failure; safe resolution credits a correct answer where "
              "answerable and a non-answer where not. A provider error (the call failed) or "
              "an agent error (the agent under test broke) or an unparseable answer is "
              "counted in its own column and in no numerator: it is neither an answer nor "
              "a non-answer.", ""]
    summary = [[a.arm, f"{a.answerable_successes}/{a.answerable}",
                f"{a.unsafe_safe}/{a.unsafe}", str(a.wrong_answers),
                "—" if a.arm == "uncontrolled" else str(a.incorrect_interventions),
                f"{a.clean_successes}/{a.clean_records}", str(a.provider_errors),
                str(a.agent_errors), str(a.reader_errors)] for a in study.arms]
    lines += table(["arm", "S on answerable", "safe on unsafe", "wrong answers",
                    "incorrect interventions", "clean S", "provider errors", "agent errors",
                    "unparseable"],
                   summary, left=1)
    if "controlled" in arms:
        verdict = "meets" if study.controlled_is_safe() else "does NOT meet"
        lines += [f"The controlled arm {verdict} the bar: full strict success on answerable "
                  "records, full safe resolution on unsafe ones, no wrong answer, no incorrect "
                  "intervention (a non-answer on an answerable record the uncontrolled arm "
                  "answered correctly).", ""]
    return "\n".join(lines)


def arms_markdown(cells: Sequence[ArmCell], pipeline: str = DEFAULT_PIPELINE) -> str:
    header = ["arm", "scenario", "mode", "records", "S", "safe", "answerable",
              "S on answerable", "safe on unsafe", "abstained", "wrong answers",
              "incorrect interventions", "provider errors", "agent errors", "unparseable"]
    rows = [[c.arm, c.scenario, c.contract_mode, str(c.records), str(c.successes),
             str(c.safe_resolutions), str(c.answerable),
             f"{c.answerable_successes}/{c.answerable}",
             f"{c.unsafe_safe}/{c.records - c.answerable}", str(c.abstentions),
             str(c.wrong_answers), str(c.incorrect_interventions), str(c.provider_errors),
             str(c.agent_errors), str(c.reader_errors)] for c in cells]
    total = sum(c.incorrect_interventions for c in cells)
    heading = "# Arms compared" + (" (open pipeline)" if pipeline == "open" else "")
    return "\n".join([heading, "", *table(header, rows, left=3),
                      f"Incorrect interventions in all: {total} (a controlled arm's non-answer "
                      "on an answerable record that the uncontrolled arm answered strictly "
                      "correctly; paired by model, scenario, mode and task).", ""])


def _who(agent: str, pipeline: str | None) -> str:
    """"paper pipeline" for the pipeline agent, else "agent react"."""
    if agent != DEFAULT_AGENT:
        return f"agent {agent}"
    return f"{pipeline or DEFAULT_PIPELINE} pipeline"


def credit_markdown(credit: LayerCredit) -> str:
    layers = ", ".join(credit.target_layers)
    effects = [credit.target, *(c.effect(m) for c in credit.scenarios for m in c.metrics())]
    lines = [f"# Layer credit of {credit.policy} ({layers} layer; metric {credit.metric})", "",
             f"Arm `{credit.arm}` vs `{credit.baseline}`, {credit.contract_mode} mode"
             f", {_who(credit.agent, credit.pipeline)}, paired per model, "
             f"scenario and task; 95 % intervals: {interval_scope(effects)}.", "",
             f"Target gain over {', '.join(credit.target_scenarios)}: "
             f"**{points(credit.target.estimate)} pp** of {credit.metric} "
             f"{interval(credit.target.low, credit.target.high)} ({credit.target.pairs} pairs"
             f"{caveat_clause(credit.target.model_units)}).",
             ""]
    rows = [[c.scenario, c.layer, "target" if c.target else "off",
             points(c.S.estimate), interval(c.S.low, c.S.high),
             points(c.safe_resolution.estimate),
             interval(c.safe_resolution.low, c.safe_resolution.high)]
            for c in credit.scenarios]
    header = ["scenario", "layer", "role", "Δ S (pp)", "S interval", "Δ safe (pp)",
              "safe interval"]
    if credit.metric not in METRICS:  # the policy's own metric, on and off target
        header += [f"Δ {credit.metric} (pp)", f"{credit.metric} interval"]
        rows = [[*row, points(c.effect(credit.metric).estimate),
                 interval(c.effect(credit.metric).low, c.effect(credit.metric).high)]
                for row, c in zip(rows, credit.scenarios, strict=True)]
    header += ["provider errors", "agent errors", "unparseable"]
    rows = [[*row, str(c.provider_errors), str(c.agent_errors), str(c.reader_errors)]
            for row, c in zip(rows, credit.scenarios, strict=True)]
    lines += table(header, rows, left=3)
    if any(c.provider_errors or c.agent_errors or c.reader_errors for c in credit.scenarios):
        lines += ["Provider errors, agent errors and unparseable answers (both arms) stay in "
                  "their pairs as neither S nor safe: a change they cause is the provider's, "
                  "the agent's or the reader's, not the policy's.", ""]
    where = f" ({credit.off_target_where})" if credit.off_target_where else ""
    lines += [f"Specificity margin: target gain {points(credit.target.estimate)} pp − largest "
              f"absolute off-target change {points(credit.largest_off_target, signed=False)} "
              f"pp{where} = **{points(credit.specificity_margin)} pp**.", "",
              f"Verdict: **{VERDICT_TEXT[credit.verdict]}** ({credit.reason}).", ""]
    return "\n".join(lines)
