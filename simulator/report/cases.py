"""The cases suite's report: per case and per turn position, by arm, scenario and mode.

Four tables answer the suite's questions. *Cases*: how many conversations were resolved
(every value turn S, every other turn safe, no corrupted identifier, no prohibited action)
with a 95 % bootstrap interval clustered on cases, how many were safe throughout (a value
turn's structured non-answer where a fault kept the evidence away counted as safe: the
most a mitigation can restore there), and where the first failure fell (with
``--epochs``, pass^k of resolution). *Paired contrasts*: repair - strict and each arm -
uncontrolled, the same conversations on both sides. *Turns by position*: does a fault at
turn 2 hurt turns 3 to 5? Safe rate and identifier exactness per turn position, the faulted
position marked. *After the fault, against the clean twin*: the same turns of the same
cases, arm and mode under ``clean``, so a drop is the fault's and not the turns'. Rates are
over the turns where a score applies; a turn with nothing to measure (identifier exactness
of a turn that expects no identifier) enters no rate, never counted as 0 or 1.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict

from simulator.archive.row import ArchiveRow
from simulator.cases.scoring import CaseOutcome, TurnScore, outcome_of, turn_failure_layer
from simulator.report.judge_section import JudgeSection
from simulator.runner.record import RunRecord
from simulator.stats.bootstrap import hierarchical_bootstrap, percentile_interval
from simulator.stats.layers import ordered_modes, ordered_scenarios
from simulator.stats.paired import Effect, paired_difference
from simulator.stats.pass_k import pass_hat_k


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Rate(_Frozen):
    n: int
    k: int
    low: float | None = None
    high: float | None = None

    @property
    def value(self) -> float | None:
        return self.k / self.n if self.n else None


class CaseCell(_Frozen):
    arm: str
    scenario: str
    contract_mode: str
    cases: int
    """Conversations: cases x epochs."""
    incomplete: int
    """Conversations with a turn missing from the store: never resolved, counted apart."""
    resolved: Rate
    """Every value turn S, every other turn safe, nothing corrupted or prohibited."""
    safe: Rate
    """Every turn safe (a value turn's structured non-answer where a fault kept the evidence
    away included), nothing corrupted or prohibited."""
    first_failures: dict[str, int]
    """``turn N: layer`` -> conversations whose resolution first failed there."""
    pass_k: dict[int, float] = {}
    """With ``--epochs K`` > 1: pass^k for k = 1..K (tau-bench's: the chance that k tries
    of a case all resolve, from each case's resolved count over its K epochs, averaged over
    cases); empty with one epoch."""


class PositionCell(_Frozen):
    arm: str
    scenario: str
    contract_mode: str
    turn: int
    fault_active: bool
    safe: Rate
    identifier_exact: Rate
    S: Rate
    """Strict success over the value turns at this position."""


class TwinContrast(_Frozen):
    """Turns after the fault, against the same turns under clean."""

    arm: str
    scenario: str
    contract_mode: str
    turns: int
    identifier_exact: Rate
    clean_identifier_exact: Rate
    safe: Rate
    clean_safe: Rate


class Contrast(_Frozen):
    """A paired difference in resolution between two conditions of the same conversations:
    repair - strict, or an arm - uncontrolled."""

    kind: str
    arm: str
    scenario: str
    contract_mode: str
    resolved: Effect
    safe: Effect


class CasesReport(_Frozen):
    cases: list[CaseCell]
    positions: list[PositionCell]
    after_fault: list[TwinContrast]
    contrasts: list[Contrast] = []
    """Paired repair - strict and arm - uncontrolled differences in resolution."""
    schedule: str
    judge: JudgeSection | None = None
    """A judge's stored judgments of the run, when asked for (``--judge NAME``)."""


def _rate(flags: Iterable[bool | None]) -> Rate:
    values = [f for f in flags if f is not None]
    return Rate(n=len(values), k=sum(values))


def _interval(rate_flags: Sequence[bool], units: Sequence[str], clusters: Sequence[str], *,
              replicates: int, seed: int) -> Rate:
    """A rate with its hierarchical bootstrap interval: models the units, cases the
    clusters (with one model, the cases alone)."""
    if not rate_flags:
        return Rate(n=0, k=0)
    reps = hierarchical_bootstrap([float(f) for f in rate_flags], list(units),
                                  list(clusters), replicates=replicates, seed=seed)
    low, high = percentile_interval(reps)
    return Rate(n=len(rate_flags), k=sum(rate_flags), low=low, high=high)


ConversationKey = tuple[str, str, str, str, str, int]
"""(arm, scenario, contract mode, model, case id, epoch): one conversation of a run."""


class TurnView(NamedTuple):
    """What the report reads of one case turn: from a run record or an archive row."""

    model: str
    arm: str
    scenario: str
    contract_mode: str
    case_id: str
    epoch: int
    turn: int
    turns: int
    fault_active: bool
    score: TurnScore


def views_from_records(records: Iterable[RunRecord]) -> list[TurnView]:
    return [TurnView(r.model, r.arm, r.scenario, r.contract_mode, r.case.case_id, r.case.epoch,
                     r.case.turn, r.case.turns, r.case.fault_active, r.case.score)
            for r in records if r.case is not None]


def views_from_rows(rows: Iterable[ArchiveRow]) -> list[TurnView]:
    """The turns of a cases archive, their scores rebuilt from its case columns."""
    out = []
    for row in rows:
        if getattr(row, "case_id", None) is None:
            continue
        valued = row.turn_kind in ("answerable", "follow_up")
        score = TurnScore(turn=row.case_turn, kind=row.turn_kind,
                          S=bool(row.S) if valued else None, safe=bool(row.turn_safe),
                          identifier_exact=row.identifier_exact,
                          corrupted=bool(row.identifier_corrupted),
                          workflow_ok=row.workflow_ok, prohibited=bool(row.prohibited_action),
                          type_fit=bool(row.type_fit), errored=bool(row.turn_errored),
                          failure_layer=turn_failure_layer(
                              row.failure_layer if valued and not row.S else None,
                              row.memory or "own"))
        out.append(TurnView(row.model, row.arm, row.scenario, row.contract_mode, row.case_id,
                            row.case_epoch or 1, row.case_turn, row.case_turns,
                            bool(row.fault_active), score))
    return out


def cases_report(views: Iterable[TurnView], *, schedule: str, replicates: int = 2000,
                 seed: int = 0) -> CasesReport:
    """The report of a cases run's turns (from its store or its archive: the same)."""
    turns: dict[ConversationKey, dict[int, TurnView]] = defaultdict(dict)
    convs_all: list[Conversation] = []
    for v in views:
        turns[(v.arm, v.scenario, v.contract_mode, v.model, v.case_id, v.epoch)][v.turn] = v
    scenarios = ordered_scenarios(k[1] for k in turns)
    modes = ordered_modes(k[2] for k in turns)
    cells = sorted({k[:3] for k in turns}, key=lambda k: (
        k[0] != "uncontrolled", k[0], scenarios.index(k[1]), modes.index(k[2])))
    case_cells, positions = [], []
    for arm, scenario, mode in cells:
        convs = {(model, cid, epoch): t for (a, s, m, model, cid, epoch), t in turns.items()
                 if (a, s, m) == (arm, scenario, mode)}
        outcomes: list[CaseOutcome] = []
        units: list[str] = []
        tries: dict[str, list[bool]] = defaultdict(list)
        incomplete = 0
        for (model, cid, _), by_turn in convs.items():
            scores = [v.score for v in by_turn.values()]
            count = next(iter(by_turn.values())).turns
            if sorted(by_turn) != list(range(1, count + 1)):
                incomplete += 1  # a conversation cut short is never resolved
                continue
            outcomes.append(outcome_of(cid, cid, "", count, scores))
            units.append(model)
            tries[f"{model}|{cid}"].append(outcomes[-1].resolved)
            first = next(iter(by_turn.values()))
            convs_all.append(Conversation(first.model, arm, scenario, mode, cid, first.epoch,
                                          S=outcomes[-1].resolved,
                                          safe_resolution=outcomes[-1].safe))
        clusters = [f"{u}|{o.case_id}" for u, o in zip(units, outcomes, strict=True)]
        failures = Counter(f"turn {o.first_failed_turn}: {o.failed_layer}" for o in outcomes
                           if not o.resolved)
        case_cells.append(CaseCell(
            arm=arm, scenario=scenario, contract_mode=mode, cases=len(convs),
            incomplete=incomplete,
            resolved=_interval([o.resolved for o in outcomes], units, clusters,
                               replicates=replicates, seed=seed),
            safe=_interval([o.safe for o in outcomes], units, clusters,
                           replicates=replicates, seed=seed),
            first_failures=dict(sorted(failures.items())), pass_k=_pass_k(tries)))
        by_position: dict[int, list[TurnView]] = defaultdict(list)
        for by_turn in convs.values():
            for n, v in by_turn.items():
                by_position[n].append(v)
        for n in sorted(by_position):
            vs = by_position[n]
            positions.append(PositionCell(
                arm=arm, scenario=scenario, contract_mode=mode, turn=n,
                fault_active=any(v.fault_active for v in vs),
                safe=_rate(v.score.safe for v in vs),
                identifier_exact=_rate(v.score.identifier_exact for v in vs),
                S=_rate(v.score.S for v in vs)))
    after = sorted(_after_fault(turns),
                   key=lambda t: cells.index((t.arm, t.scenario, t.contract_mode)))
    return CasesReport(cases=case_cells, positions=positions, after_fault=after,
                       contrasts=_contrasts(convs_all, replicates=replicates, seed=seed),
                       schedule=schedule)


class Conversation(NamedTuple):
    """One conversation's outcome as a row the paired statistics read: ``S`` is resolved,
    ``safe_resolution`` safe throughout (simulator/stats/paired.py's outcome names)."""

    model: str
    arm: str
    scenario: str
    contract_mode: str
    case_id: str
    epoch: int
    S: bool
    safe_resolution: bool


def _contrasts(convs: Sequence[Conversation], *, replicates: int, seed: int
               ) -> list[Contrast]:
    """repair - strict per arm and scenario, and each arm - uncontrolled per scenario and
    mode, paired by model, case and epoch; intervals clustered on cases."""
    out: list[Contrast] = []
    cells = {(c.arm, c.scenario, c.contract_mode) for c in convs}

    def rows(arm: str, scenario: str, mode: str) -> list[Conversation]:
        return [c for c in convs if (c.arm, c.scenario, c.contract_mode) == (arm, scenario, mode)]

    def effect(a: list[Conversation], b: list[Conversation], pair_on: tuple[str, ...],
               metric: str) -> Effect:
        return paired_difference(a, b, pair_on=pair_on, metric=metric, unit_on=("model",),
                                 cluster_on=("case_id",), replicates=replicates, seed=seed)

    scenarios = ordered_scenarios(c.scenario for c in convs)
    modes = ordered_modes(c.contract_mode for c in convs)
    arms = sorted({c.arm for c in convs}, key=lambda a: (a != "uncontrolled", a))
    for arm in arms:
        for scenario in scenarios:
            if {(arm, scenario, "strict"), (arm, scenario, "repair")} <= cells:
                a, b = rows(arm, scenario, "repair"), rows(arm, scenario, "strict")
                on = ("model", "arm", "scenario", "case_id", "epoch")
                out.append(Contrast(kind="repair - strict", arm=arm, scenario=scenario,
                                    contract_mode="both",
                                    resolved=effect(a, b, on, "S"),
                                    safe=effect(a, b, on, "safe_resolution")))
    for arm in arms[1:] if arms and arms[0] == "uncontrolled" else ():
        for scenario in scenarios:
            for mode in modes:
                if not {(arm, scenario, mode), ("uncontrolled", scenario, mode)} <= cells:
                    continue
                a, b = rows(arm, scenario, mode), rows("uncontrolled", scenario, mode)
                on = ("model", "scenario", "contract_mode", "case_id", "epoch")
                out.append(Contrast(kind=f"{arm} - uncontrolled", arm=arm, scenario=scenario,
                                    contract_mode=mode,
                                    resolved=effect(a, b, on, "S"),
                                    safe=effect(a, b, on, "safe_resolution")))
    return out


def _pass_k(tries: dict[str, list[bool]]) -> dict[int, float]:
    """pass^1..pass^K over the cases that ran all K epochs (none with one epoch)."""
    epochs = max((len(t) for t in tries.values()), default=1)
    whole = {cid: t for cid, t in tries.items() if len(t) == epochs}
    if epochs < 2 or not whole:
        return {}
    return {k: pass_hat_k(whole, k) for k in range(1, epochs + 1)}


def _after_fault(turns: dict[ConversationKey, dict[int, TurnView]]) -> list[TwinContrast]:
    """Every non-clean cell's turns after its last faulted turn, beside the clean twin's."""
    out = []
    cells = sorted({k[:3] for k in turns if k[1] != "clean"})
    for arm, scenario, mode in cells:
        mine, twin = [], []
        for (a, s, m, model, cid, epoch), by_turn in turns.items():
            if (a, s, m) != (arm, scenario, mode):
                continue
            clean = turns.get((arm, "clean", mode, model, cid, epoch), {})
            faulted = [n for n, v in by_turn.items() if v.fault_active]
            if not faulted:
                continue
            for n, v in by_turn.items():
                if n > max(faulted) and n in clean:
                    mine.append(v.score)
                    twin.append(clean[n].score)
        if not mine:
            continue
        out.append(TwinContrast(
            arm=arm, scenario=scenario, contract_mode=mode, turns=len(mine),
            identifier_exact=_rate(s.identifier_exact for s in mine),
            clean_identifier_exact=_rate(s.identifier_exact for s in twin),
            safe=_rate(s.safe for s in mine), clean_safe=_rate(s.safe for s in twin)))
    return out


def is_cases_run(manifest: dict[str, object] | None) -> bool:
    config = (manifest or {}).get("config")
    return isinstance(config, dict) and config.get("suite") == "cases"


def cases_report_from_store(run_dir: object, *, replicates: int = 2000, seed: int = 0
                            ) -> CasesReport:
    """The report of a cases run directory."""
    from simulator.cases.schedule import DEFAULT_SCHEDULE
    from simulator.runner.store import RunStore

    with RunStore(str(run_dir), create=False) as store:
        config = (store.manifest() or {}).get("config") or {}
        views = views_from_records(store.records())
    return cases_report(views, schedule=str(config.get("fault_turns") or DEFAULT_SCHEDULE),
                        replicates=replicates, seed=seed)


def is_cases_archive(rows: Sequence[ArchiveRow]) -> bool:
    return any(getattr(row, "case_id", None) is not None for row in rows)


def cases_report_from_archive(rows: Sequence[ArchiveRow], schedule: str | None, *,
                              replicates: int = 2000, seed: int = 0) -> CasesReport:
    """The report recomputed from a cases archive's rows alone: the same numbers."""
    from simulator.cases.schedule import DEFAULT_SCHEDULE

    return cases_report(views_from_rows(rows), schedule=schedule or DEFAULT_SCHEDULE,
                        replicates=replicates, seed=seed)
