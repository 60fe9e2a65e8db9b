"""The react agent beside the pipeline: time per record on the same cells, side by side.

    python benchmarks/agents.py [--tasks N] [--repeats R]

Both agents run the same matrix cells (every scenario, both contract modes) offline with the
deterministic reader or model; the react agent is a LangChain ``create_agent`` graph per
record (two model calls and one tool call, with the harness middleware), the pipeline a
batched LangGraph graph. The figure that matters is the ratio, printed from one run on one
machine; the absolute times move with the machine's load. Best of ``--repeats`` for each.
"""

from __future__ import annotations

import argparse
import time

from simulator.runner.cells import MatrixRunner, cells
from simulator.runner.collector import gc_tuned
from simulator.runner.config import RunConfig
from simulator.runner.matrix import BATCH_SIZE


def ms_per_record(runner: MatrixRunner, repeats: int) -> float:
    todo = list(cells(runner.config, runner.corpus))
    runner.run_cells(todo[:BATCH_SIZE])  # warm the indexes and rankings
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        for start in range(0, len(todo), BATCH_SIZE):
            runner.run_cells(todo[start:start + BATCH_SIZE])
        best = min(best, (time.perf_counter() - started) * 1000 / len(todo))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=48)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rows = tuple(range(0, 240, max(1, 240 // args.tasks)))[: args.tasks]
    timings = {}
    for agent in ("pipeline", "react"):
        runner = MatrixRunner(RunConfig(agent=agent, task_rows=rows))
        with gc_tuned():  # as run_matrix does
            timings[agent] = ms_per_record(runner, args.repeats)
    records = len(rows) * 9 * 2
    print(f"{records} records per pass, best of {args.repeats}")
    for agent, ms in timings.items():
        print(f"  {agent:<9} {ms:7.2f} ms/record   full matrix (4,320): {ms * 4.32:6.1f} s")
    print(f"  react / pipeline: {timings['react'] / timings['pipeline']:.1f}x")


if __name__ == "__main__":
    main()
