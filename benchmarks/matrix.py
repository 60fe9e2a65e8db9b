"""The deterministic matrix through LangGraph beside the same node functions called directly.

    python benchmarks/matrix.py [--tasks N]

Both paths run the same per-episode steps (retrieve -> contract -> gate -> generate) on the
same cells and produce the same records; the difference is LangGraph's overhead. The runner
sends BATCH_SIZE episodes per graph invoke, because LangGraph's cost is per node step
(about 0.2 ms; a trivial invoke ~0.9 ms, LANGCHAIN_NOTES §2) while one record's own work is
~0.3 ms. The ratio should stay at 3x or less.
"""

from __future__ import annotations

import argparse
import time

from simulator.agent import steps
from simulator.runner.config import RunConfig
from simulator.runner.matrix import BATCH_SIZE, Cell, MatrixRunner, cells
from simulator.runner.record import RunRecord

_NODE_STEPS = {"retrieve": steps.retrieve, "contract": steps.contract,
               "policy_gate": steps.policy_gate, "generate": steps.generate, "stop": steps.stop}


def run_direct(runner: MatrixRunner, cell: Cell) -> RunRecord:
    """The graph's per-episode steps in the graph's order, one record, without LangGraph."""
    ctx = runner.context(cell)
    episode = steps.initial_episode(cell.task)
    while episode["next"] != "done":
        episode = steps.merge(episode, _NODE_STEPS[episode["next"]](episode, ctx))
    return runner.score(cell, episode, 0.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=None)
    args = parser.parse_args()
    runner = MatrixRunner(RunConfig(tasks=args.tasks))
    todo = list(cells(runner.config, runner.corpus))
    runner.run_cell(todo[0]), run_direct(runner, todo[0])  # warm caches for both paths

    start = time.perf_counter()
    via_graph = [r for i in range(0, len(todo), BATCH_SIZE)
                 for r in runner.run_cells(todo[i:i + BATCH_SIZE])]
    graph_s = time.perf_counter() - start
    start = time.perf_counter()
    direct = [run_direct(runner, c) for c in todo]
    direct_s = time.perf_counter() - start

    same = all(a.model_dump(exclude={"latency_ms"}) == b.model_dump(exclude={"latency_ms"})
               for a, b in zip(via_graph, direct, strict=True))
    print(f"records               {len(todo)}")
    print(f"LangGraph agent       {graph_s:7.2f} s   {graph_s / len(todo) * 1e3:6.2f} ms/record")
    print(f"direct node calls     {direct_s:7.2f} s   {direct_s / len(todo) * 1e3:6.2f} ms/record")
    print(f"ratio graph / direct  {graph_s / direct_s:7.2f}x  (target <= 3x)")
    print(f"identical records     {same}")


if __name__ == "__main__":
    main()
