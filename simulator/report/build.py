"""``build_report``: the one code path from archive rows to every aggregate.

``layerrag report RUN_DIR``, ``layerrag archive recompute FILE`` and the summary at the end
of ``layerrag run`` all call :func:`build_report` on allowlisted rows, so a report and a
recompute of its archive agree exactly.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from simulator.archive.codec import load_archive
from simulator.archive.export import archive_from_store
from simulator.archive.row import ArchiveHeader, ArchiveRow, row_key
from simulator.errors import UsageError
from simulator.report.behaviour import behaviour_section
from simulator.report.judge_section import judge_section
from simulator.report.misleading import misleading_section
from simulator.report.model import ArmComparison, ArmReport, Provenance, Report, ScenarioEffect
from simulator.report.tables import (
    failure_layer_table,
    model_averages,
    prompt_coverage,
    provider_averages,
    scenario_mode_table,
    top_repair_gains,
)
from simulator.report.tool_use import tool_use_section
from simulator.runner.completeness import incompleteness
from simulator.scoring.outcome import errored
from simulator.stats.bootstrap import BootstrapKind
from simulator.stats.layers import ordered_modes, ordered_scenarios, target_layer
from simulator.stats.margin import specificity
from simulator.stats.paired import PAIR_ON_CONTRACT_MODE, paired_difference
from simulator.vocabulary import DEFAULT_AGENT

SCHEMA_REPAIR_TARGETS = frozenset({"schema_drift"})
"""Schema repair claims the contract layer; every other scenario is an off-target control."""


def _provenance(rows: Sequence[ArchiveRow], header: ArchiveHeader | None, replicates: int,
                seed: int, bootstrap: BootstrapKind) -> Provenance:
    if header is not None:
        return Provenance(run_id=header.run_id, created=header.created,
                          corpus_hash=header.corpus_hash,
                          archive_version=header.archive_version, versions=header.versions,
                          prompt_template_hashes=header.prompt_template_hashes,
                          pipeline=header.pipeline, agent=header.agent, records=len(rows),
                          structured_output=dict(header.structured_output),
                          replicates=replicates, seed=seed, bootstrap=bootstrap)
    run_ids = sorted({r.run_id for r in rows})
    return Provenance(run_id=",".join(run_ids), created=None, corpus_hash=None,
                      archive_version=None, versions={}, prompt_template_hashes={},
                      pipeline=None, agent=",".join(sorted({r.agent for r in rows})) or
                      DEFAULT_AGENT, records=len(rows), replicates=replicates, seed=seed,
                      bootstrap=bootstrap)


def _any_pair(rows_a: Sequence[ArchiveRow], rows_b: Sequence[ArchiveRow]) -> bool:
    def keys(rows: Sequence[ArchiveRow]) -> set[tuple[object, ...]]:
        return {tuple(getattr(r, f) for f in PAIR_ON_CONTRACT_MODE) for r in rows}

    return not keys(rows_a).isdisjoint(keys(rows_b))


def repair_effects(rows: Sequence[ArchiveRow], *, replicates: int, seed: int,
                   rates: dict[tuple[str, str], float],
                   bootstrap: BootstrapKind = "nested") -> list[ScenarioEffect]:
    """Paired repair - strict per scenario, for scenarios with at least one matched pair."""
    by_cell: dict[tuple[str, str], list[ArchiveRow]] = defaultdict(list)
    for row in rows:
        by_cell[(row.scenario, row.contract_mode)].append(row)
    effects = []
    for scenario in ordered_scenarios(r.scenario for r in rows):
        strict, repair = by_cell.get((scenario, "strict")), by_cell.get((scenario, "repair"))
        if not strict or not repair or not _any_pair(repair, strict):
            continue
        effect = paired_difference(repair, strict, pair_on=PAIR_ON_CONTRACT_MODE,
                                   replicates=replicates, seed=seed, bootstrap=bootstrap)
        effects.append(ScenarioEffect(scenario=scenario, target_layer=target_layer(scenario),
                                      strict_rate=rates[(scenario, "strict")],
                                      repair_rate=rates[(scenario, "repair")], effect=effect))
    return effects


def _arm_report(arm: str, rows: Sequence[ArchiveRow], replicates: int, seed: int,
                bootstrap: BootstrapKind) -> ArmReport:
    cells = scenario_mode_table(rows)
    rates = {(c.scenario, c.contract_mode): c.successes / c.records for c in cells}
    effects = repair_effects(rows, replicates=replicates, seed=seed, rates=rates,
                             bootstrap=bootstrap)
    by_scenario = {e.scenario: e.effect for e in effects}
    credit = (specificity(by_scenario, SCHEMA_REPAIR_TARGETS)
              if SCHEMA_REPAIR_TARGETS <= by_scenario.keys() else None)
    layer_names, layer_rows = failure_layer_table(rows)
    models = model_averages(rows)
    return ArmReport(
        arm=arm, records=len(rows), scenario_modes=cells, failure_layer_names=layer_names,
        failure_layers=layer_rows, effects=effects, specificity=credit,
        model_averages=models, provider_averages=provider_averages(models),
        top_gains=top_repair_gains(rows), prompt_coverage=prompt_coverage(rows),
    )


def build_report(rows: Sequence[ArchiveRow], *, header: ArchiveHeader | None = None,
                 replicates: int = 2000, seed: int = 0,
                 bootstrap: BootstrapKind = "nested") -> Report:
    """Every aggregate of ``rows`` (allowlisted archive rows), one section per arm.

    Args:
        rows: archive rows, in any order (they are put in archive order first).
        header: the archive header, for provenance; None gives a report without it.
        replicates: bootstrap replicates for the paired intervals.
        seed: the bootstrap seed; the same rows and seed give the same report.
        bootstrap: ``nested`` (the paper's, default) or ``crossed`` (docs/intervals.md).
    """
    ordered = sorted(rows, key=row_key)
    arms: dict[str, list[ArchiveRow]] = defaultdict(list)
    for row in ordered:
        arms[row.arm].append(row)
    provenance = _provenance(ordered, header, replicates, seed, bootstrap).model_copy(
        update={"agent_errors": sum(r.agent_error for r in ordered)})
    return Report(
        provenance=provenance,
        model_units=len({(r.provider, r.model) for r in ordered}),
        policy_units=len({r.unit for r in ordered}),
        arms=[_arm_report(arm, arms[arm], replicates, seed, bootstrap)
              for arm in _arms_in_run_order(arms, header)],
        arm_comparison=arm_comparison(ordered, _baseline(arms)) if len(arms) > 1 else [],
        behaviour=behaviour_section(ordered, replicates=replicates, seed=seed),
        misleading=misleading_section(ordered, replicates=replicates, seed=seed),
        incomplete=(incompleteness(header.expected_records, ordered)
                    if header is not None and header.expected_records is not None else None),
    )


def _arms_in_run_order(arms: dict[str, list[ArchiveRow]], header: ArchiveHeader | None
                       ) -> list[str]:
    """The arms in the order the run was given them (``--arms b,a``: b first), as its
    expected cells record it; alphabetical for rows without that record."""
    expected = header.expected_records if header is not None else None
    given = list(dict.fromkeys(c[3] for c in expected.keys)) if expected is not None else []
    return sorted(arms, key=lambda a: (given.index(a) if a in given else len(given), a))


def _baseline(arms: dict[str, list[ArchiveRow]]) -> str:
    """The arm others are compared with: ``uncontrolled``, or the first agent's
    uncontrolled arm when agents are compared (``pipeline/uncontrolled``)."""
    if "uncontrolled" in arms:
        return "uncontrolled"
    return next((a for a in arms if a.endswith("/uncontrolled")), "uncontrolled")


def arm_comparison(rows: Sequence[ArchiveRow], baseline: str = "uncontrolled"
                   ) -> list[ArmComparison]:
    """S, safe resolution and incorrect interventions per arm x scenario x mode."""
    from simulator.stats.arms import incorrect_interventions

    wrong: dict[tuple[str, str, str], int] = defaultdict(int)
    for item in incorrect_interventions(rows, baseline=baseline):
        wrong[(item.arm, item.scenario, item.contract_mode)] += 1
    groups: dict[tuple[str, str, str], list[ArchiveRow]] = defaultdict(list)
    for row in rows:
        groups[(row.arm, row.scenario, row.contract_mode)].append(row)
    arm_order = sorted({r.arm for r in rows}, key=lambda a: (a != baseline, a))
    out = []
    for arm in arm_order:
        for scenario in ordered_scenarios({s for a, s, _ in groups if a == arm}):
            for mode in ordered_modes({m for a, s, m in groups if (a, s) == (arm, scenario)}):
                cell = groups[(arm, scenario, mode)]
                out.append(ArmComparison(
                    arm=arm, scenario=scenario, contract_mode=mode, records=len(cell),
                    S=sum(r.S for r in cell) / len(cell),
                    safe_resolution=sum(r.safe_resolution and not errored(r)
                                        for r in cell) / len(cell),
                    incorrect_interventions=wrong[(arm, scenario, mode)],
                    provider_errors=sum(r.provider_error for r in cell),
                    agent_errors=sum(r.agent_error for r in cell),
                    reader_errors=sum(r.reader_error for r in cell)))
    return out


def report_from_store(run_dir: Path | str, *, replicates: int = 2000, seed: int = 0,
                      bootstrap: BootstrapKind = "nested", judge: str | None = None,
                      weights: str = "paper") -> Report:
    """The report of a run directory, via its in-memory archive (what the CLI prints), with
    the first agent error's reason, which only the run store keeps, and ``judge``'s stored
    judgments when asked for (S_final under ``weights``)."""
    from simulator.runner.store import RunStore

    archive = archive_from_store(run_dir)
    report = build_report(archive.rows, header=archive.header, replicates=replicates,
                          seed=seed, bootstrap=bootstrap)
    if judge is not None:
        report = report.model_copy(update={"judge": judge_section(
            run_dir, judge, weights, replicates=replicates, seed=seed)})
    agent = report.provenance.agent
    if not report.provenance.agent_errors and agent == "pipeline":
        return report
    with RunStore(run_dir, create=False) as store:
        _, first = store.errors("agent_error")
        tool_use = tool_use_section(store.records()) if agent != "pipeline" else None
    return report.model_copy(update={"tool_use": tool_use, "provenance":
                                     report.provenance.model_copy(
                                         update={"first_agent_error": first})})


def report_from_runs(run_dirs: Sequence[Path | str], *, replicates: int = 2000,
                     seed: int = 0, bootstrap: BootstrapKind = "nested",
                     judge: str | None = None, weights: str = "paper") -> Report:
    """One report of several run directories: agents side by side.

    A run holds one agent; given runs of several agents on the same tasks, each arm is
    labelled with its agent (``react/uncontrolled``), so every agent gets its own section and
    the arms comparison puts them side by side (paired by provider, model, scenario, mode
    and task; the first agent's uncontrolled arm is the baseline). One run is just its report.
    """
    if len(run_dirs) == 1:
        return report_from_store(run_dirs[0], replicates=replicates, seed=seed,
                                 bootstrap=bootstrap, judge=judge, weights=weights)
    if judge is not None:
        raise UsageError(f"--judge {judge}: reports one run's judgments; for two runs' "
                         "S_final side by side use layerrag judge RUN_A --compare RUN_B")
    rows = [row for run_dir in run_dirs for row in archive_from_store(run_dir).rows]
    agents = list(dict.fromkeys(row.agent for row in rows))
    if len(agents) > 1:
        rows = [row.model_copy(update={"arm": f"{row.agent}/{row.arm}"}) for row in rows]
    keys = [row_key(row) for row in rows]
    if len(set(keys)) != len(keys):
        raise UsageError("the runs hold the same cells (agent, model, arm, scenario, mode and "
                         "task) more than once: report them one at a time")
    return build_report(rows, replicates=replicates, seed=seed, bootstrap=bootstrap)


def report_from_archive(path: Path | str, *, replicates: int = 2000, seed: int = 0,
                        bootstrap: BootstrapKind = "nested") -> Report:
    """The report recomputed from an archive file alone."""
    archive = load_archive(path)
    return build_report(archive.rows, header=archive.header, replicates=replicates, seed=seed,
                        bootstrap=bootstrap)

