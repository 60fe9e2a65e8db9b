"""Time the hierarchical bootstrap on a paper-sized matrix, vectorized vs a naive loop.

38,880 synthetic records (9 models x 9 scenarios x 2 contract modes x 240 tasks); for each
scenario, paired repair - strict differences with 2,000 replicates. The budget for the
vectorized path is 5 s. The naive path (a Python loop per replicate, model unit and cluster)
runs fewer replicates and is extrapolated linearly; the output says so.

    /work/venv/bin/python benchmarks/bootstrap.py [--replicates 2000] [--naive-replicates 40]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict

import numpy as np

from simulator.archive.row import ArchiveRow
from simulator.report import build_report
from simulator.stats import ordered_scenarios, paired_difference
from simulator.stats.synthetic import synthetic_rows

BUDGET_S = 5.0


def _split(rows: list[ArchiveRow]) -> dict[str, tuple[list[ArchiveRow], list[ArchiveRow]]]:
    cells: dict[tuple[str, str], list[ArchiveRow]] = defaultdict(list)
    for row in rows:
        cells[(row.scenario, row.contract_mode)].append(row)
    return {s: (cells[(s, "repair")], cells[(s, "strict")])
            for s in ordered_scenarios(r.scenario for r in rows)}


def vectorized(rows: list[ArchiveRow], replicates: int) -> dict[str, tuple[float, float]]:
    out = {}
    for scenario, (repair, strict) in _split(rows).items():
        effect = paired_difference(repair, strict, replicates=replicates, seed=0)
        out[scenario] = (effect.low, effect.high)
    return out


def naive(rows: list[ArchiveRow], replicates: int) -> dict[str, tuple[float, float]]:
    """The textbook loop: per replicate, draw models, then clusters, then add up rows."""
    rng = np.random.default_rng(0)
    out = {}
    for scenario, (repair, strict) in _split(rows).items():
        strict_s = {(r.provider, r.model, r.task_row): r.S for r in strict}
        nested: dict[tuple[str, str], dict[int, list[int]]] = defaultdict(
            lambda: defaultdict(list))
        for r in repair:
            diff = int(r.S) - int(strict_s[(r.provider, r.model, r.task_row)])
            nested[(r.provider, r.model)][r.unit].append(diff)
        models = [list(units.values()) for _, units in sorted(nested.items())]
        means = []
        for _ in range(replicates):
            total = count = 0
            for _ in range(len(models)):
                clusters = models[int(rng.integers(len(models)))]
                for _ in range(len(clusters)):
                    cluster = clusters[int(rng.integers(len(clusters)))]
                    total += sum(cluster)
                    count += len(cluster)
            means.append(total / count)
        low, high = np.percentile(means, [2.5, 97.5])
        out[scenario] = (float(low), float(high))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--replicates", type=int, default=2000)
    parser.add_argument("--naive-replicates", type=int, default=40,
                        help="replicates for the naive loop, extrapolated to --replicates")
    args = parser.parse_args()

    start = time.perf_counter()
    rows = synthetic_rows(models=9, tasks=240, seed=0)
    made = time.perf_counter() - start
    print(f"synthetic records: {len(rows):,} (built in {made:.2f} s, not timed below)")

    start = time.perf_counter()
    fast = vectorized(rows, args.replicates)
    fast_s = time.perf_counter() - start
    print(f"vectorized: 9 scenarios x {args.replicates} replicates in {fast_s:.2f} s "
          f"(budget {BUDGET_S:.0f} s: {'ok' if fast_s < BUDGET_S else 'OVER BUDGET'})")

    start = time.perf_counter()
    naive(rows, args.naive_replicates)
    slow_s = time.perf_counter() - start
    projected = slow_s * args.replicates / args.naive_replicates
    print(f"naive loop: 9 scenarios x {args.naive_replicates} replicates in {slow_s:.2f} s; "
          f"extrapolated to {args.replicates} replicates: ~{projected:.0f} s "
          f"(~{projected / fast_s:.0f}x slower)")

    start = time.perf_counter()
    build_report(rows, replicates=args.replicates)
    print(f"whole report (every table, every interval): {time.perf_counter() - start:.2f} s")
    drift = fast["schema_drift"]
    print(f"schema drift repair - strict interval: [{drift[0]:.3f}, {drift[1]:.3f}]")
    return 0 if fast_s < BUDGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
