"""The cases report as Markdown (simulator/report/cases.py builds it): one table per
question, each with the sentence that says how to read it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from simulator.report.cases import CaseCell, CasesReport, PositionCell, Rate, TwinContrast
from simulator.stats.paired import Effect


def _pct(rate: Rate) -> str:
    if rate.value is None:
        return "n/a"
    text = f"{rate.value:.1%} ({rate.k}/{rate.n})"
    if rate.low is not None and rate.high is not None:
        text += f" [{rate.low:.1%}, {rate.high:.1%}]"
    return text


def _points(effect: Effect) -> str:
    return (f"{effect.estimate * 100:+.1f} [{effect.low * 100:+.1f}, "
            f"{effect.high * 100:+.1f}]")


def _table(head: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return lines + ["| " + " | ".join(row) + " |" for row in rows]


def render_cases_report(report: CasesReport) -> str:
    """The report as Markdown."""
    several = len({c.arm for c in report.cases}) > 1
    lead = ["arm"] if several else []

    def head_of(c: CaseCell | PositionCell | TwinContrast) -> list[str]:
        return [*([c.arm] if several else []), c.scenario, c.contract_mode]

    lines = [f"## Cases (faults {report.schedule})", "",
             "Resolved: every value turn strictly successful (S), a clarifying question "
             "on every underspecified turn, a non-answer on every unanswerable one, no "
             "corrupted identifier, no prohibited action. Safe throughout: the same with a "
             "structured non-answer counted on a value turn where a fault kept the evidence "
             "away (the most a mitigation can restore there). 95% bootstrap intervals "
             "clustered on cases; first failures are resolution's.", ""]
    lines += _table([*lead, "scenario", "mode", "cases", "resolved", "safe throughout",
                     "incomplete", "first failures"],
                    ([*head_of(c), str(c.cases), _pct(c.resolved),
                      _pct(c.safe), str(c.incomplete),
                      "; ".join(f"{k} x{v}" for k, v in c.first_failures.items()) or "-"]
                     for c in report.cases))
    if any(c.pass_k for c in report.cases):
        ks = sorted({k for c in report.cases for k in c.pass_k})
        lines += ["", "### pass^k over the epochs", "",
                  "tau-bench's pass^k: the chance that k tries of a case all resolve (each "
                  "case's resolved count over its epochs, averaged over cases).", ""]
        lines += _table([*lead, "scenario", "mode", *(f"pass^{k}" for k in ks)],
                        ([*head_of(c), *(f"{c.pass_k[k]:.1%}" if k in c.pass_k else "n/a"
                                         for k in ks)] for c in report.cases))
    lines += ["", "## Turns by position", "",
              "Safe rate, identifier exactness (turns that expect or name identifiers) and "
              "strict success (value turns) per turn; * marks the turns the faults acted on.",
              ""]
    lines += _table([*lead, "scenario", "mode", "turn", "safe", "identifiers exact", "S"],
                    ([*head_of(p), f"{p.turn}{'*' if p.fault_active else ''}", _pct(p.safe),
                      _pct(p.identifier_exact), _pct(p.S)] for p in report.positions))
    if report.contrasts:
        lines += ["", "## Paired contrasts", "",
                  "Differences in resolution between two conditions of the same "
                  "conversations (same model, case and epoch), in points, with a 95% "
                  "bootstrap interval clustered on cases.", ""]
        lines += _table(["contrast", "arm", "scenario", "mode", "pairs", "resolved",
                         "safe throughout"],
                        ([c.kind, c.arm, c.scenario, c.contract_mode, str(c.resolved.pairs),
                          _points(c.resolved), _points(c.safe)] for c in report.contrasts))
    if report.after_fault:
        lines += ["", "## After the fault, against the clean twin", "",
                  "The turns after the last faulted turn, beside the same turns of the same "
                  "cases under clean (same arm and mode).", ""]
        lines += _table([*lead, "scenario", "mode", "turns", "identifiers exact",
                         "clean twin", "safe", "clean twin"],
                        ([*head_of(t), str(t.turns), _pct(t.identifier_exact),
                          _pct(t.clean_identifier_exact), _pct(t.safe), _pct(t.clean_safe)]
                         for t in report.after_fault))
    return "\n".join(lines) + "\n"
