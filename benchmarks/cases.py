"""The cases suite beside the single-turn matrix: time per record, side by side.

    python benchmarks/cases.py [--cases N]

The cases suite runs every scenario at turn 2, both contract modes, one arm, on cases_v1
(one record per turn, 3,186 for the whole suite), each turn one checkpointed LangGraph
invoke around a pipeline episode; the single-turn matrix runs the paper's 4,320 records in
batches of 40 episodes per invoke. Both go through their real entry points into a fresh
run directory. The figure that matters is the ratio, printed from one run on one machine;
the absolute times move with the machine's load.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from simulator.conversations.run import run_cases
from simulator.runner.config import RunConfig
from simulator.runner.matrix import run_matrix


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=None, help="first N cases (default all)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        cases = run_cases(RunConfig(suite="cases", tasks=args.cases), Path(tmp) / "cases")
        case_s = time.perf_counter() - started
        started = time.perf_counter()
        single = run_matrix(RunConfig(), Path(tmp) / "single", progress=False)
        single_s = time.perf_counter() - started
    case_ms, single_ms = case_s * 1000 / cases.total, single_s * 1000 / single.total
    print(f"cases suite:     {cases.total:5d} turns   {case_s:6.1f} s   {case_ms:6.2f} ms/turn")
    print(f"single-turn:     {single.total:5d} records {single_s:6.1f} s   "
          f"{single_ms:6.2f} ms/record")
    print(f"cases / single-turn, per record: {case_ms / single_ms:.1f}x")


if __name__ == "__main__":
    main()
