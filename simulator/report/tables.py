"""Counting aggregates of one arm's rows: the scenario x mode table, failure layers,
model and provider averages, the largest repair gains and prompt-hash coverage."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence

from simulator.archive.row import ArchiveRow
from simulator.report.model import (
    FailureLayerRow,
    ModelAverage,
    PromptCoverage,
    ProviderAverage,
    RepairGain,
    ScenarioModeCell,
)
from simulator.scoring.outcome import errored
from simulator.stats.layers import ordered_modes, ordered_scenarios
from simulator.vocabulary import FAILURE_LAYERS

NO_FAILURE = "none"
"""The failure-layer column for strict successes."""
UNPARSEABLE = "unparseable"
"""The failure-layer column for reader errors, split off ``reader`` (which then counts
parsed answers that were wrong only); present when some record has one."""
TOP_GAINS = 10


def _cells(rows: Sequence[ArchiveRow]) -> dict[tuple[str, str], list[ArchiveRow]]:
    cells: dict[tuple[str, str], list[ArchiveRow]] = defaultdict(list)
    for row in rows:
        cells[(row.scenario, row.contract_mode)].append(row)
    order = [(s, m) for s in ordered_scenarios(r.scenario for r in rows)
             for m in ordered_modes(r.contract_mode for r in rows)]
    return {key: cells[key] for key in order if key in cells}


def scenario_mode_table(rows: Sequence[ArchiveRow]) -> list[ScenarioModeCell]:
    """One row per scenario x mode, in the paper's scenario order, strict before repair."""
    return [
        ScenarioModeCell(
            scenario=scenario, contract_mode=mode, records=len(cell),
            successes=sum(r.S for r in cell),
            abstentions=sum(r.abstained and not errored(r) for r in cell),
            grounded=sum(r.grounded for r in cell),
            groundedness_false_positives=sum(r.grounded and not r.S for r in cell),
            safe_resolutions=sum(r.safe_resolution and not errored(r) for r in cell),
            provider_errors=sum(r.provider_error for r in cell),
            agent_errors=sum(r.agent_error for r in cell),
            reader_errors=sum(r.reader_error for r in cell),
            with_prompt_hash=sum(r.prompt_hash is not None for r in cell),
        )
        for (scenario, mode), cell in _cells(rows).items()
    ]


def failure_layer_table(rows: Sequence[ArchiveRow]) -> tuple[list[str], list[FailureLayerRow]]:
    """Counts per failure layer; columns are ``none`` then the layers that occur, in order,
    reader errors apart from wrong answers (:data:`UNPARSEABLE`, after ``reader``)."""
    seen = {_layer(r) for r in rows}
    known = [layer for layer in (*FAILURE_LAYERS, UNPARSEABLE) if layer in seen]
    if UNPARSEABLE in known and "reader" in known:
        known.insert(known.index("reader") + 1, known.pop(known.index(UNPARSEABLE)))
    extra = sorted(x for x in seen if x != NO_FAILURE and x not in known)
    names = [NO_FAILURE, *known, *extra]
    table = []
    for (scenario, mode), cell in _cells(rows).items():
        counts = Counter(_layer(r) for r in cell)
        table.append(FailureLayerRow(scenario=scenario, contract_mode=mode,
                                     counts={name: counts.get(name, 0) for name in names}))
    return names, table


def _layer(row: ArchiveRow) -> str:
    if row.reader_error and row.failure_layer == "reader":
        return UNPARSEABLE
    return str(row.failure_layer or NO_FAILURE)


def model_averages(rows: Sequence[ArchiveRow]) -> list[ModelAverage]:
    """Per provider-model unit, success over every scenario, overall and per mode."""
    units: dict[tuple[str, str], list[ArchiveRow]] = defaultdict(list)
    for row in rows:
        units[(row.provider, row.model)].append(row)
    out = []
    for (provider, model), unit_rows in sorted(units.items()):
        modes = ordered_modes(r.contract_mode for r in unit_rows)
        out.append(ModelAverage(
            provider=provider, model=model, records=len(unit_rows),
            successes=sum(r.S for r in unit_rows),
            records_by_mode={m: sum(r.contract_mode == m for r in unit_rows) for m in modes},
            successes_by_mode={m: sum(r.S for r in unit_rows if r.contract_mode == m)
                               for m in modes},
        ))
    return out


def provider_averages(models: Sequence[ModelAverage]) -> list[ProviderAverage]:
    """Per provider, pooled over its models' records."""
    by_provider: dict[str, list[ModelAverage]] = defaultdict(list)
    for avg in models:
        by_provider[avg.provider].append(avg)
    return [ProviderAverage(provider=p, models=len(ms), records=sum(m.records for m in ms),
                            successes=sum(m.successes for m in ms))
            for p, ms in sorted(by_provider.items())]


def top_repair_gains(rows: Sequence[ArchiveRow], limit: int = TOP_GAINS) -> list[RepairGain]:
    """The largest repair-minus-strict success changes per model x scenario.

    Ties are broken by provider, model and scenario order, so the list is stable.
    """
    counts: dict[tuple[str, str, str, str], list[int]] = defaultdict(lambda: [0, 0])
    for row in rows:
        cell = counts[(row.provider, row.model, row.scenario, row.contract_mode)]
        cell[0] += row.S
        cell[1] += 1
    scenario_rank = {s: i for i, s in enumerate(ordered_scenarios(r.scenario for r in rows))}
    gains = []
    for (provider, model, scenario, mode), (_, _) in counts.items():
        if mode != "repair" or (provider, model, scenario, "strict") not in counts:
            continue
        strict_s, strict_n = counts[(provider, model, scenario, "strict")]
        repair_s, repair_n = counts[(provider, model, scenario, "repair")]
        strict, repair = strict_s / strict_n, repair_s / repair_n
        gains.append(RepairGain(provider=provider, model=model, scenario=scenario,
                                strict_rate=strict, repair_rate=repair,
                                gain=repair - strict + 0.0))
    gains.sort(key=lambda g: (-g.gain, g.provider, g.model, scenario_rank[g.scenario]))
    return gains[:limit]


def prompt_coverage(rows: Sequence[ArchiveRow]) -> PromptCoverage:
    """How many records built a prompt (have a hash) and how many stopped before."""
    with_hash = sum(r.prompt_hash is not None for r in rows)
    return PromptCoverage(with_hash=with_hash, without_hash=len(rows) - with_hash)
