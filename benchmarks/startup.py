"""Start-up: how long each command's imports take, and how soon it shows its first output.

    python benchmarks/startup.py [--repeats R]

For each command, side by side (median of ``--repeats`` fresh processes):

- **import**: seconds to import ``simulator.cli.main`` and build the parser the command
  uses (what runs before the command does anything), measured inside the process;
- **first output**: wall seconds from starting ``python -m simulator.cli.main ...`` to the
  first byte it writes to a terminal (a pseudo-terminal, so the start line and progress
  bar a user would see count, as they would in a shell);
- **done**: wall seconds until the process exits.

The interpreter's own start-up (about 0.05 s) is in the last two and not in the first.
The figures move with the machine's load: compare the columns of one run, on one machine.
"""

from __future__ import annotations

import argparse
import os
import pty
import select
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

IMPORT_PROBE = """
import sys, time
started = time.perf_counter()
from simulator.cli.main import build_parser, invoked_subcommand
build_parser(only=invoked_subcommand(sys.argv[1:]))
print(time.perf_counter() - started)
"""


def commands(scratch: Path) -> list[tuple[str, list[str]]]:
    """The commands a new user types first, and a configuration error."""
    resumed = scratch / "resumed"
    return [
        ("layerrag --help", ["--help"]),
        ("layerrag run --help", ["run", "--help"]),
        ("layerrag list policies", ["list", "policies"]),
        ("layerrag run (24 tasks, new run)",
         ["run", "--out", str(scratch / "fresh-{n}"), "--tasks", "24", "--format", "none"]),
        ("layerrag run (resume, other --tasks)",
         ["run", "--out", str(resumed), "--tasks", "12", "--format", "none"]),
    ]


def import_seconds(argv: list[str]) -> float:
    out = subprocess.run([sys.executable, "-c", IMPORT_PROBE, *argv], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    return float(out.strip().splitlines()[-1])


def first_output_and_done(argv: list[str]) -> tuple[float, float]:
    """Run ``layerrag ARGV`` on a pseudo-terminal: seconds to its first byte, and to exit."""
    parent, child = pty.openpty()
    started = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "simulator.cli.main", *argv], cwd=ROOT,
                               stdin=subprocess.DEVNULL, stdout=child, stderr=child)
    os.close(child)
    first = None
    while True:
        ready, _, _ = select.select([parent], [], [], 0.01)
        if ready:
            try:
                chunk = os.read(parent, 65536)
            except OSError:  # the child closed the terminal
                chunk = b""
            if chunk and first is None:
                first = time.perf_counter() - started
            if not chunk and process.poll() is not None:
                break
        elif process.poll() is not None:
            break
    process.wait()
    done = time.perf_counter() - started
    os.close(parent)
    return (first if first is not None else done), done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="layerrag-startup-") as tmp:
        scratch = Path(tmp)
        subprocess.run([sys.executable, "-m", "simulator.cli.main", "run", "--out",
                        str(scratch / "resumed"), "--tasks", "24", "--format", "none",
                        "--no-progress"], cwd=ROOT, check=True, capture_output=True)
        print("| command | import (s) | first output (s) | done (s) |")
        print("|:--|--:|--:|--:|")
        for label, template in commands(scratch):
            imports, firsts, dones = [], [], []
            for n in range(args.repeats):
                argv = [a.replace("{n}", str(n)) for a in template]
                imports.append(import_seconds(argv))
                first, done = first_output_and_done(argv)
                firsts.append(first)
                dones.append(done)
            print(f"| {label} | {statistics.median(imports):.2f} | "
                  f"{statistics.median(firsts):.2f} | {statistics.median(dones):.2f} |",
                  flush=True)


if __name__ == "__main__":
    main()
