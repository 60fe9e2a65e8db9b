"""What keeping every record's trajectory costs the main job, and how fast ``show`` reads it.

    python benchmarks/trajectories.py [--tasks N]

Runs the deterministic matrix twice into fresh directories, side by side in one process:
once as shipped, once with the trajectory builder switched off (the records are identical;
only the ``trajectories`` table is empty). Prints both times, their ratio, the store sizes,
and the time of ``layerrag show --failed --scenario stale_index --limit 1`` (in process)
on the run with trajectories.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import tempfile
import time
from pathlib import Path
from typing import Any
from unittest import mock

from simulator.cli.main import main as layerrag
from simulator.runner.config import RunConfig
from simulator.runner.matrix import run_matrix
from simulator.runner.store import STORE_FILE


def _timed_run(out: Path, tasks: int | None) -> float:
    start = time.perf_counter()
    run_matrix(RunConfig(tasks=tasks), out, progress=False)
    return time.perf_counter() - start


def _none(*_: Any, **__: Any) -> None:
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        _timed_run(root / "warm", 2)  # imports and corpus caches, for both runs alike
        kept = _timed_run(root / "kept", args.tasks)
        with mock.patch("simulator.runner.cells.build_trajectory", _none):
            off = _timed_run(root / "off", args.tasks)
        sizes = {name: (root / name / STORE_FILE).stat().st_size / 1e6 for name in ("kept",
                                                                                    "off")}
        start = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            layerrag(["show", str(root / "kept"), "--failed", "--scenario", "stale_index",
                      "--limit", "1"])
        show_s = time.perf_counter() - start
    print(f"matrix with trajectories     {kept:6.2f} s   store {sizes['kept']:6.1f} MB")
    print(f"matrix without trajectories  {off:6.2f} s   store {sizes['off']:6.1f} MB")
    print(f"ratio with / without         {kept / off:6.2f}x")
    print(f"show --failed --limit 1      {show_s:6.3f} s   (in process; target < 1 s)")


if __name__ == "__main__":
    main()
