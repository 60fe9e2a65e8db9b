"""``layerrag run``: run (or resume) the matrix into a run directory and print the report."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from simulator.agent.pipelines import PIPELINE_HELP
from simulator.cli.lists import output_path, scenario_list, split_list
from simulator.cli.live_options import (
    add_live_options,
    add_source_priority_option,
    generation_from_args,
    given_live_options,
    live_options_from_args,
)
from simulator.cli.paths import check_output_dir
from simulator.cli.plugin_option import add_plugin_option
from simulator.errors import UsageError
from simulator.live.options import is_live
from simulator.runner.config import RunConfig
from simulator.vocabulary import (
    CONTRACT_MODES,
    DEFAULT_AGENT,
    DEFAULT_RETRIEVER,
    DEFAULT_TOP_K,
    SCENARIO_NAMES,
)

if TYPE_CHECKING:
    from simulator.live.options import LiveOptions

EXAMPLES = """examples:
  layerrag run --out runs/deterministic                  # full deterministic matrix
  layerrag run --out runs/smoke --tasks 24 --scenarios clean,schema_drift
  layerrag run --out runs/arms --arms uncontrolled,controlled
  layerrag run --out runs/open --arms uncontrolled,controlled --pipeline open
  layerrag run --out runs/gpt --model openai:gpt-4o --max-calls 2000 --concurrency 16
  layerrag run --out runs/local --model openai:qwen2.5-7b --base-url http://127.0.0.1:8000/v1
  layerrag run --out runs/gpt-replay --model openai:gpt-4o --replay   # no provider calls
  layerrag run --out runs/misleading --scenarios misleading --arms uncontrolled,evidence_integrity
  layerrag run --out runs/rs --scenarios misleading --model openai:gpt-4o --source-priority strict
"""


def hits_per_search(text: str) -> int:
    """``--top-k``: a whole number of at least 1 (argparse names the option on refusal)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} hits: a search returns at least 1")
    return value


def seconds(text: str) -> float:
    """``--record-timeout``: a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text}: a time limit is a positive, finite number "
                                         "of seconds")
    return value


def add_pipeline_option(parser: argparse.ArgumentParser, *, default: str | None = "paper",
                        note: str = "") -> None:
    parser.add_argument("--pipeline", default=default, metavar="{paper,open}",
                        help=PIPELINE_HELP + note)


def add_agent_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--agent", default=DEFAULT_AGENT, metavar="NAME",
                        help="agent under test: pipeline (default), react, or your own "
                             "MODULE:CALLABLE factory (docs/agents.md)")
    parser.add_argument("--record-timeout", type=seconds, default=None, metavar="SECONDS",
                        help="time limit of one record of a tool-calling agent; a record "
                             "past it is an agent error (default 60 offline, 900 live)")


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
    add_pipeline_option(parser)
    add_agent_option(parser)
    add_plugin_option(parser)


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "run", help="run the matrix models x scenarios x modes x arms x tasks",
        description="Run (or resume) the matrix into RUN_DIR, then print the report. "
                    "Re-running the same command resumes and never duplicates a record.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=output_path, required=True, help="run directory")
    parser.add_argument("--scenarios", default="all",
                        help=f"'all' or a comma list of {', '.join(SCENARIO_NAMES)}; "
                             "'misleading' is clean and the three misleading_* positions "
                             "(docs/misleading.md)")
    add_source_priority_option(parser)
    parser.add_argument("--modes", default=",".join(CONTRACT_MODES),
                        help="comma list of strict, repair (default both)")
    parser.add_argument("--arms", default="uncontrolled",
                        help="comma list of arms, e.g. uncontrolled,controlled,"
                             "mine=bounded_retry+session_isolation")
    parser.add_argument("--tasks", type=int, default=None,
                        help="only the first N tasks in corpus order (with --suite cases: "
                             "the first N cases)")
    parser.add_argument("--suite", choices=("enterprise", "cases"), default="enterprise",
                        help="enterprise: one question per record on enterprise_v2, the "
                             "paper's matrix (default); cases: multi-turn support cases on "
                             "cases_v1, one record per turn (docs/cases.md)")
    parser.add_argument("--fault-turns", default=None, metavar="at:K|from:K|always",
                        help="with --suite cases: the turns the scenarios' faults act on "
                             "(default at:2, the second turn); a scenario that declares its "
                             "own turns keeps them")
    parser.add_argument("--epochs", type=int, default=1, metavar="K",
                        help="with --suite cases: run each case K times and report pass^1 "
                             "... pass^K (tau-bench's: every one of k tries resolved)")
    parser.add_argument("--format", choices=("md", "csv", "json", "none"), default="md",
                        help="report printed at the end (default md)")
    parser.add_argument("--full", action="store_true",
                        help="print every table of the report at the end, not the concise "
                             "default (layerrag report --full)")
    parser.add_argument("--retriever", default=DEFAULT_RETRIEVER, metavar="NAME",
                        help=f"registered retriever (default {DEFAULT_RETRIEVER}; "
                             "layerrag list retrievers)")
    parser.add_argument("--top-k", type=hits_per_search, default=DEFAULT_TOP_K, metavar="K",
                        help=f"hits per search (default {DEFAULT_TOP_K})")
    add_run_options(parser)
    add_live_options(parser)
    parser.set_defaults(func=_run)


_CONFIG_FLAGS = {"models": "--model", "scenarios": "--scenarios", "modes": "--modes",
                 "arms": "--arms", "tasks": "--tasks", "seed": "--seed", "spec": "--spec",
                 "base_url": "--base-url", "pipeline": "--pipeline", "agent": "--agent",
                 "retriever": "--retriever", "top_k": "--top-k",
                 "source_priority": "--source-priority", "record_timeout": "--record-timeout",
                 "suite": "--suite", "fault_turns": "--fault-turns", "epochs": "--epochs"}


def build_config(**fields: Any) -> RunConfig:
    """A :class:`RunConfig` from command-line values; a value it refuses is one line naming
    the option (``--tasks 0: input should be greater than or equal to 1``)."""
    try:
        return RunConfig(**fields)
    except ValidationError as exc:
        raise config_error(exc, fields) from None


def config_error(exc: ValidationError, fields: dict[str, Any]) -> UsageError:
    """The one-line usage error for a :class:`RunConfig` that refused ``fields``."""
    first = exc.errors()[0]
    name = str(first["loc"][0]) if first["loc"] else ""
    why = first["msg"].removeprefix("Value error, ")
    if name not in _CONFIG_FLAGS:  # a rule across fields names its option itself
        return UsageError(why)
    return UsageError(f"{_CONFIG_FLAGS[name]} {fields.get(name)!r}: "
                      f"{why[:1].lower()}{why[1:]}")


def config_from_args(args: argparse.Namespace) -> RunConfig:
    from policies.compose import register_cli_arms

    scenarios = scenario_list(args.scenarios)
    arms = register_cli_arms(split_list(args.arms, "--arms"))
    models = tuple(args.model or ("deterministic",))
    unused = given_live_options(args) if not is_live(models) else []
    if unused:
        raise UsageError(f"{unused[0]} applies to live models only; the deterministic reader "
                         "makes no provider calls")
    return build_config(
        models=models, scenarios=scenarios,
        modes=split_list(args.modes, "--modes"), arms=arms, tasks=args.tasks, seed=args.seed,
        spec=str(args.spec) if args.spec else None, base_url=args.base_url,
        pipeline=args.pipeline, generation=generation_from_args(args) if is_live(models) else {},
        agent=args.agent, retriever=args.retriever, top_k=args.top_k,
        source_priority=args.source_priority, record_timeout=args.record_timeout,
        suite=args.suite, fault_turns=args.fault_turns, epochs=args.epochs,
    )


def _run(args: argparse.Namespace) -> int:
    from simulator.cli.run_arms import check_resumes, register_arms_of_run

    check_output_dir(args.out, "--out")
    defined_here = [spec.partition("=")[0].strip() for spec in split_list(args.arms, "--arms")
                    if "=" in spec]
    # resuming: the run's named arms resolve by name
    register_arms_of_run(args.out, redefined=defined_here)
    config = config_from_args(args)
    check_resumes(args.out, config)  # a mismatch is refused before the heavy imports
    progress = False if args.no_progress else None
    options = live_options_from_args(args) if is_live(config.models) else None
    _check_inputs(config)
    announce_start(config, args.out, progress)  # after every check: a refusal is one line
    if config.suite == "cases":
        from simulator.cli.cases_run import run_cases_command

        return run_cases_command(config, args, progress)
    if options is not None:
        return _run_live(config, args, options, progress)
    from simulator.runner.matrix import run_matrix

    summary = run_matrix(config, args.out, progress=progress)
    print(f"{summary.run_id}: {summary.written} records written, {summary.already_done} "
          f"already done, {summary.total} in the matrix ({summary.seconds:.1f} s) -> "
          f"{summary.run_dir}", file=sys.stderr)
    if args.format != "none":
        from simulator.cli.report_cmd import print_run_report

        print_run_report(args.out, args.format, full=args.full)
    from simulator.cli.live_run import explain_agent_errors
    from simulator.cli.show_cmd import where_next

    explain_agent_errors(summary)
    if summary.total:
        print(where_next(summary.run_dir), file=sys.stderr)
    return summary.exit_code


def _check_inputs(config: RunConfig) -> None:
    """What a user gave that can still be wrong, checked before the start line so that a
    refusal stays one line: every name (the runner checks them again, at no cost), and a
    spec of their own (loaded, validated and generated once: the runner reuses it). The
    bundled spec is valid by its tests."""
    from simulator.runner.validate import validate_config

    validate_config(config)  # every name: scenarios, modes, arms, models, retriever, agent
    if config.suite == "cases":
        from simulator.cases import build_case_corpus

        build_case_corpus(config.spec, config.seed)
    elif config.spec is not None:
        from simulator.corpus import build_corpus

        build_corpus(config.spec, config.seed)


def announce_start(config: RunConfig, out: Path, progress: bool | None) -> None:
    """Say what is starting at once, on a terminal or piped: building the corpus and
    importing the runner take seconds before the progress bar (or, piped, the first status
    line) can appear. Printed after the options are checked, so a refusal stays one line;
    ``--no-progress`` keeps stderr to the summary."""
    if progress is False:
        return
    axes = [f"{len(config.models)} model(s)", f"{len(config.scenarios)} scenario(s)",
            f"{len(config.modes)} mode(s)", f"{len(config.arms)} arm(s)",
            f"{config.tasks} task(s)" if config.tasks else "all tasks"]
    print(f"layerrag run: {' x '.join(axes)} -> {out}; building the corpus and the runner",
          file=sys.stderr, flush=True)


def _run_live(config: RunConfig, args: argparse.Namespace, options: LiveOptions,
              progress: bool | None) -> int:
    from simulator.cli.live_run import (
        announce_live_run,
        explain_agent_errors,
        explain_provider_errors,
    )
    from simulator.runner.live import run_live_matrix

    summary = run_live_matrix(config, args.out, options=options, progress=progress)
    announce_live_run(summary)
    if summary.stopped is not None:
        return summary.exit_code
    if args.format != "none":
        from simulator.cli.report_cmd import print_run_report

        print_run_report(args.out, args.format, full=args.full)
    from simulator.cli.show_cmd import where_next

    explain_provider_errors(summary)
    explain_agent_errors(summary)
    print(where_next(summary.run_dir), file=sys.stderr)
    return summary.exit_code
