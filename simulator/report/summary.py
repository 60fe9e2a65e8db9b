"""The concise report's tables: one row per scenario, one row per arm.

``layerrag report`` prints these by default, with one-line notes; ``--full`` prints every
table instead (simulator/report/markdown.py). They hold no number the full report lacks:
the per-scenario row lays the scenario x mode cells and the paired effect side by side.
"""

from __future__ import annotations

from simulator.report.formatting import (
    MISSING,
    interval,
    markdown_table,
    points,
    proportion,
)
from simulator.report.model import ArmReport, Report, ScenarioModeCell, rate
from simulator.stats.layers import ordered_modes, target_layer


def scenario_summary(arm: ArmReport) -> list[str]:
    """S, the paired repair − strict effect, safe resolution and GF per scenario, with the
    provider, agent and reader errors that are in no numerator."""
    modes = ordered_modes(c.contract_mode for c in arm.scenario_modes)
    cells = {(c.scenario, c.contract_mode): c for c in arm.scenario_modes}
    effects = {e.scenario: e for e in arm.effects}
    scenarios = list(dict.fromkeys(c.scenario for c in arm.scenario_modes))

    def per_mode(scenario: str, value: str) -> list[str]:
        out = []
        for mode in modes:
            cell: ScenarioModeCell | None = cells.get((scenario, mode))
            out.append(MISSING if cell is None else proportion(getattr(cell, value)))
        return out

    header = ["scenario", "layer", *(f"S {m}" for m in modes)]
    if effects:
        header += ["Δ S (pp)", "95 % interval"]
    header += [*(f"safe {m}" for m in modes), *(f"GF {m}" for m in modes),
               "provider errors", "agent errors", "unparseable"]
    rows = []
    for scenario in scenarios:
        mine = [c for c in arm.scenario_modes if c.scenario == scenario]
        effect = effects.get(scenario)
        row = [scenario, target_layer(scenario), *per_mode(scenario, "success_rate")]
        if effects:
            row += ([points(effect.effect.estimate),
                     interval(effect.effect.low, effect.effect.high)]
                    if effect is not None else [MISSING, MISSING])
        row += [*per_mode(scenario, "safe_resolution_rate"),
                *per_mode(scenario, "groundedness_false_positive_rate"),
                str(sum(c.provider_errors for c in mine)),
                str(sum(c.agent_errors for c in mine)),
                str(sum(c.reader_errors for c in mine))]
        rows.append(row)
    return markdown_table(header, rows)


def arm_totals(report: Report) -> list[str]:
    """One row per arm, the baseline first: S and safe resolution over all its records,
    incorrect interventions and the errors (``--full`` has them per scenario and mode)."""
    arms = {a.arm: a for a in report.arms}
    rows = []
    for name in dict.fromkeys(c.arm for c in report.arm_comparison):
        arm = arms[name]
        cells = arm.scenario_modes
        rows.append([name, str(arm.records),
                     proportion(rate(sum(c.successes for c in cells), arm.records)),
                     proportion(rate(sum(c.safe_resolutions for c in cells), arm.records)),
                     str(sum(c.incorrect_interventions for c in report.arm_comparison
                             if c.arm == name)),
                     str(sum(c.provider_errors for c in cells)),
                     str(sum(c.agent_errors for c in cells)),
                     str(sum(c.reader_errors for c in cells))])
    return markdown_table(["arm", "records", "S", "safe", "incorrect interventions",
                           "provider errors", "agent errors", "unparseable"], rows,
                          "lrrrrrrr")
