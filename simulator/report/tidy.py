"""The report as one tidy CSV: one number per line, every table in the same columns.

Columns: section, arm, provider, model, scenario, contract_mode, metric, value, low, high.
Empty cells mean "not applicable"; ``low``/``high`` are filled for paired effects only.
Values are exact (counts as integers, rates with full float precision). Each paired effect
is followed by the design of its interval (pairs, model units, policy units); provenance
gives the bootstrap kind and the intervals' caveat (empty with ten or more model units).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

from simulator.report.model import ArmComparison, ArmReport, Report

COLUMNS = ("section", "arm", "provider", "model", "scenario", "contract_mode", "metric",
           "value", "low", "high")
Line = tuple[str, str, str, str, str, str, str, object, object, object]


def _arm_lines(arm: ArmReport) -> Iterator[Line]:
    a = arm.arm
    for c in arm.scenario_modes:
        for metric in ("records", "successes", "success_rate", "abstentions", "abstention_rate",
                       "grounded", "grounded_rate", "groundedness_false_positives",
                       "groundedness_false_positive_rate", "safe_resolutions",
                       "safe_resolution_rate", "provider_errors", "agent_errors", "reader_errors",
                       "with_prompt_hash"):
            yield ("scenario_mode", a, "", "", c.scenario, c.contract_mode, metric,
                   getattr(c, metric), "", "")
    for r in arm.failure_layers:
        for layer, n in r.counts.items():
            yield ("failure_layer", a, "", "", r.scenario, r.contract_mode, layer, n, "", "")
    for e in arm.effects:
        yield ("repair_effect", a, "", "", e.scenario, "repair-strict", "S", e.effect.estimate,
               e.effect.low, e.effect.high)
        for metric in ("pairs", "model_units", "policy_units"):
            yield ("repair_effect", a, "", "", e.scenario, "repair-strict", metric,
                   getattr(e.effect, metric), "", "")
    if arm.specificity is not None:
        s = arm.specificity
        scen = "+".join(s.targets)
        for metric, value in (("target_gain", s.target_gain),
                              ("largest_off_target", s.largest_off_target),
                              ("margin", s.margin)):
            yield ("specificity", a, "", "", scen, "repair-strict", metric, value, "", "")
    for m in arm.model_averages:
        yield ("model_average", a, m.provider, m.model, "", "", "records", m.records, "", "")
        yield ("model_average", a, m.provider, m.model, "", "", "success_rate", m.success_rate,
               "", "")
        for mode, n in m.records_by_mode.items():
            yield ("model_average", a, m.provider, m.model, "", mode, "success_rate",
                   m.successes_by_mode[mode] / n if n else "", "", "")
    for p in arm.provider_averages:
        yield ("provider_average", a, p.provider, "", "", "", "records", p.records, "", "")
        yield ("provider_average", a, p.provider, "", "", "", "success_rate", p.success_rate,
               "", "")
    for g in arm.top_gains:
        yield ("top_gain", a, g.provider, g.model, g.scenario, "repair-strict", "gain", g.gain,
               "", "")
    yield ("prompt_hash", a, "", "", "", "", "with_hash", arm.prompt_coverage.with_hash, "", "")
    yield ("prompt_hash", a, "", "", "", "", "without_hash", arm.prompt_coverage.without_hash,
           "", "")


def _comparison_lines(rows: list[ArmComparison]) -> Iterator[Line]:
    for c in rows:
        for metric in ("records", "S", "safe_resolution", "incorrect_interventions",
                       "provider_errors", "agent_errors", "reader_errors"):
            yield ("arm_comparison", c.arm, "", "", c.scenario, c.contract_mode, metric,
                   getattr(c, metric), "", "")


def render_csv(report: Report) -> str:
    """Every aggregate of the report as tidy CSV text."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    p = report.provenance
    for metric, value in (("run_id", p.run_id), ("corpus_hash", p.corpus_hash or ""),
                          ("records", p.records), ("model_units", report.model_units),
                          ("policy_units", report.policy_units), ("bootstrap", p.bootstrap),
                          ("interval_caveat", report.interval_caveat or ""),
                          ("replicates", p.replicates), ("seed", p.seed),
                          ("pipeline", p.pipeline or ""), ("agent", p.agent),
                          ("agent_errors", p.agent_errors),
                          ("first_agent_error", p.first_agent_error or "")):
        writer.writerow(("provenance", "", "", "", "", "", metric, value, "", ""))
    for arm in report.arms:
        writer.writerows(_arm_lines(arm))
    writer.writerows(_comparison_lines(report.arm_comparison))
    return out.getvalue()
