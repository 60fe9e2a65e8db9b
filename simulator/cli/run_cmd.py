"""``layerrag run``: run (or resume) the matrix into a run directory and print the report."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from simulator.runner.config import ALL_SCENARIOS, CONTRACT_MODES, RunConfig

EXAMPLES = """examples:
  layerrag run --out runs/deterministic                  # full deterministic matrix
  layerrag run --out runs/smoke --tasks 24 --scenarios clean,schema_drift
  layerrag run --out runs/arms --arms uncontrolled,controlled
"""


def split_list(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """Options shared by ``run`` and the presets built on it."""
    parser.add_argument("--model", action="append", default=None, metavar="MODEL",
                        help="reader: deterministic (default), openai:M, anthropic:M, "
                             "google:M; repeat for a model axis")
    parser.add_argument("--base-url", default=None,
                        help="OpenAI-compatible server URL (vLLM, llama.cpp, Ollama)")
    parser.add_argument("--seed", type=int, default=0, help="corpus and fault seed (default 0)")
    parser.add_argument("--spec", type=Path, default=None,
                        help="spec folder (default: the bundled enterprise_v2)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "run", help="run the matrix models x scenarios x modes x arms x tasks",
        description="Run (or resume) the matrix into RUN_DIR, then print the report. "
                    "Re-running the same command resumes and never duplicates a record.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, required=True, help="run directory")
    parser.add_argument("--scenarios", default="all",
                        help=f"'all' or a comma list of {', '.join(ALL_SCENARIOS)}")
    parser.add_argument("--modes", default=",".join(CONTRACT_MODES),
                        help="comma list of strict, repair (default both)")
    parser.add_argument("--arms", default="uncontrolled",
                        help="comma list of arms, e.g. uncontrolled,controlled,"
                             "mine=bounded_retry+session_isolation")
    parser.add_argument("--tasks", type=int, default=None,
                        help="only the first N tasks in corpus order")
    parser.add_argument("--format", choices=("md", "csv", "json", "none"), default="md",
                        help="report printed at the end (default md)")
    add_run_options(parser)
    parser.set_defaults(func=_run)


def config_from_args(args: argparse.Namespace) -> RunConfig:
    from policies.compose import register_cli_arms

    scenarios = ALL_SCENARIOS if args.scenarios == "all" else split_list(args.scenarios)
    arms = register_cli_arms(split_list(args.arms))
    return RunConfig(
        models=tuple(args.model or ("deterministic",)), scenarios=scenarios,
        modes=split_list(args.modes), arms=arms, tasks=args.tasks, seed=args.seed,
        spec=str(args.spec) if args.spec else None, base_url=args.base_url,
    )


def _run(args: argparse.Namespace) -> int:
    from simulator.runner.matrix import run_matrix

    config = config_from_args(args)
    summary = run_matrix(config, args.out, progress=False if args.no_progress else None)
    print(f"{summary.run_id}: {summary.written} records written, {summary.already_done} "
          f"already done, {summary.total} in the matrix ({summary.seconds:.1f} s) -> "
          f"{summary.run_dir}", file=sys.stderr)
    if args.format != "none":
        from simulator.cli.report_cmd import print_run_report

        print_run_report(args.out, args.format)
    return 0
