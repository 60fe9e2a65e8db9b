"""The report as LaTeX ``table`` environments (booktabs), ready to paste into a paper."""

from __future__ import annotations

from collections.abc import Sequence

from simulator.report.formatting import interval, interval_scope, points, proportion
from simulator.report.model import ArmReport, Report

_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
            "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
            "^": r"\textasciicircum{}", "—": "--", "−": "$-$", "×": r"$\times$",
            "Δ": r"$\Delta$", "∧": r"$\wedge$"}


def escape(text: str) -> str:
    """Escape LaTeX's special characters in a plain-text cell."""
    return "".join(_SPECIAL.get(ch, ch) for ch in text)


def _table(caption: str, label: str, header: Sequence[str],
           rows: Sequence[Sequence[str]], align: str) -> list[str]:
    return [
        r"\begin{table}[t]", r"\centering", r"\small",
        rf"\caption{{{escape(caption)}}}", rf"\label{{{label}}}",
        rf"\begin{{tabular}}{{{align}}}", r"\toprule",
        " & ".join(escape(h) for h in header) + r" \\", r"\midrule",
        *(" & ".join(escape(c) for c in row) + r" \\" for row in rows),
        r"\bottomrule", r"\end{tabular}", r"\end{table}", "",
    ]


def _arm(arm: ArmReport, suffix: str, label: str) -> list[str]:
    lines = _table(
        f"Strict success by scenario and contract mode{suffix}. GF: grounded yet not S.",
        f"tab:scenario-mode{label}",
        ["scenario", "mode", "n", "S", "abstain", "grounded", "GF", "safe", "prov. err.",
         "agent err.", "unparseable"],
        [[c.scenario, c.contract_mode, str(c.records), proportion(c.success_rate),
          proportion(c.abstention_rate), proportion(c.grounded_rate),
          proportion(c.groundedness_false_positive_rate),
          proportion(c.safe_resolution_rate), str(c.provider_errors), str(c.agent_errors),
          str(c.reader_errors)]
         for c in arm.scenario_modes],
        "llrrrrrrrrr")
    if arm.effects:
        lines += _table(
            f"Paired repair − strict effects in percentage points{suffix}; 95 % intervals: "
            f"{interval_scope([e.effect for e in arm.effects])}.",
            f"tab:repair-effects{label}",
            ["scenario", "layer", "strict S", "repair S", "Δ (pp)", "95 % interval"],
            [[e.scenario, e.target_layer, proportion(e.strict_rate),
              proportion(e.repair_rate), points(e.effect.estimate),
              interval(e.effect.low, e.effect.high)] for e in arm.effects],
            "llrrrr")
    if arm.top_gains:
        lines += _table(
            f"Largest strict-to-repair gains{suffix}.", f"tab:top-gains{label}",
            ["provider", "model", "scenario", "strict S", "repair S", "gain (pp)"],
            [[g.provider, g.model, g.scenario, proportion(g.strict_rate),
              proportion(g.repair_rate), points(g.gain)] for g in arm.top_gains],
            "lllrrr")
    return lines


def render_latex(report: Report) -> str:
    """The main tables of every arm; needs ``\\usepackage{booktabs}``."""
    p = report.provenance
    lines = [f"% layerrag report: run {p.run_id}, {p.records} records, {p.bootstrap} bootstrap, "
             f"{p.replicates} replicates (seed {p.seed}); needs \\usepackage{{booktabs}}", ""]
    if p.agent_errors:
        lines[0:0] = [f"% {p.agent_errors} of {p.records} records are agent errors: "
                      f"{p.first_agent_error or 'the archive keeps no reasons'}"]
    several = len(report.arms) > 1
    for arm in report.arms:
        suffix = f" (arm {arm.arm})" if several else ""
        label = f"-{arm.arm}" if several else ""
        lines += _arm(arm, suffix, label)
    if report.arm_comparison:
        lines += _table(
            "Arms compared: strict success and safe resolution per scenario and contract "
            "mode. Incorrect interventions: non-answers on records the uncontrolled arm "
            "answered strictly correctly.", "tab:arms",
            ["arm", "scenario", "mode", "n", "S", "safe", "incorrect interventions",
             "prov. err.", "agent err.", "unparseable"],
            [[c.arm, c.scenario, c.contract_mode, str(c.records), proportion(c.S),
              proportion(c.safe_resolution), str(c.incorrect_interventions),
              str(c.provider_errors), str(c.agent_errors), str(c.reader_errors)]
             for c in report.arm_comparison],
            "lllrrrrrrr")
    return "\n".join(lines)
