"""``layerrag judge RUN_DIR``: score an existing run with the case-aware judge's eight metrics.

No agent call is made: the judge reads the stored records beside the labels of the run's
corpus (simulator/judge/run.py), stores one judgment per record in the run store's own
``judgments`` table, and prints per-metric means with hierarchical bootstrap intervals,
severity-band counts and S_final by scenario x contract mode (x arm when there are several).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simulator.cli.judge_calibrate import human_option
from simulator.cli.judge_llm import add_llm_judge_options

if TYPE_CHECKING:
    from simulator.judge.metrics import MetricName
    from simulator.judge.run import JudgedRecord

EXAMPLES = """examples:
  layerrag judge runs/deterministic --judge deterministic
  layerrag judge runs/deterministic --weights uniform
  layerrag judge runs/deterministic --weights retrieval-heavy --json
  layerrag judge runs/deterministic --weights my_weights.toml   # the eight names -> weights
  layerrag judge runs/react --compare runs/deterministic         # paired Wilcoxon, per task
  layerrag judge runs/deterministic --judge openai:gpt-4o-mini --judge-max-calls 500
  layerrag judge runs/deterministic --judge openai:qwen2.5-1.5b --base-url http://127.0.0.1:8080
  layerrag judge calibrate runs/deterministic --judge openai:gpt-4o-mini --json
"""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "judge", help="score a run with the case-aware judge's eight metrics",
        description="Judge every record of an existing run (no agent calls) on the eight "
                    "case-aware metrics, store the judgments in the run store and print "
                    "per-metric means with 95%% hierarchical bootstrap intervals, severity "
                    "bands and S_final by scenario x contract mode (x arm). Records of "
                    "agent, provider or reader errors are unjudged: counted apart, never "
                    "scored. Metric rules: docs/judge.md.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run_dir", metavar="RUN_DIR", type=Path,
                        help="a run directory (runs.sqlite), or an archive exported with "
                             "--judge (the judge table from its columns alone); 'calibrate "
                             "RUN_DIR' compares an LLM judge with the reference judge")
    parser.add_argument("calibrate_run", nargs="?", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--judge", default="deterministic",
                        help="the judge: deterministic (the offline reference judge; "
                             "default) or PROVIDER:MODEL, an LLM judge (openai:gpt-4o-mini, "
                             "or openai:NAME with --base-url for a local server)")
    add_weights_option(parser)
    parser.add_argument("--replicates", type=int, default=2000,
                        help="bootstrap replicates (default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    parser.add_argument("--json", action="store_true", help="print the table as JSON")
    parser.add_argument("--compare", type=Path, metavar="RUN_B",
                        help="compare RUN_DIR (system a) with RUN_B (system b) on per-task "
                             "S_final: paired Wilcoxon signed-rank test beside the paired "
                             "bootstrap interval, per scenario x mode (the paper's Table 2)")
    human_option(parser)
    add_llm_judge_options(parser)
    parser.set_defaults(func=_judge)


def add_weights_option(parser: argparse.ArgumentParser, what: str = "S_final") -> None:
    """``--weights PROFILE|FILE``, the S_final weights (layerrag judge and report)."""
    parser.add_argument("--weights", default="paper", metavar="PROFILE|FILE",
                        help=f"{what} weights: paper (default), uniform, retrieval-heavy, "
                             "or a TOML / JSON file of the eight metric names")


def _judge(args: argparse.Namespace) -> int:
    from simulator.cli.judge_llm import is_llm_judge, refuse_llm_options_for
    from simulator.errors import UsageError
    from simulator.judge.weights import load_weights
    from simulator.stats.judged import as_json, summarize

    weights_name, weights = load_weights(args.weights)  # refuse bad weights before reading
    if args.replicates < 1:
        raise UsageError(f"--replicates must be at least 1, got {args.replicates}")
    if args.seed < 0:
        raise UsageError(f"--seed must be 0 or more, got {args.seed}")
    if not is_llm_judge(args.judge):
        refuse_llm_options_for(args)
    if args.calibrate_run is not None:
        if str(args.run_dir) != "calibrate":
            raise UsageError(f"{args.calibrate_run}: judge takes one run directory (or "
                             "'calibrate RUN_DIR')")
        from simulator.cli.judge_calibrate import calibrate

        return calibrate(args, args.calibrate_run, weights_name, weights)
    if args.human is not None:
        raise UsageError("--human applies to judge calibrate RUN_DIR")
    started = time.perf_counter()
    if args.compare is not None:
        return _compare(args, weights_name, weights)
    outcome = judged_run(args, args.run_dir)
    if isinstance(outcome, int):
        return outcome
    judged, stored, rubric, extra = outcome
    cells = summarize(judged, weights, replicates=args.replicates, seed=args.seed)
    seconds = time.perf_counter() - started
    if args.json:
        table = as_json(cells, weights_name=weights_name, weights=weights, judge=args.judge,
                        rubric=rubric, replicates=args.replicates, seed=args.seed)
        if extra is not None:
            table["judge_calls"] = extra.as_json()
        print(json.dumps(table, indent=2))
    else:
        from simulator.report.judge_section import render_judge_tables

        sys.stdout.write(render_judge_tables(cells, weights_name=weights_name,
                                             judge=args.judge, rubric=rubric))
    sys.stdout.flush()
    where = ("recomputed from the archive" if args.run_dir.is_file() else
             "stored in the run store (table judgments)" if stored else
             "not stored: the run store is read-only")
    print(f"judged {sum(c.judged for c in cells)} records, "
          f"{sum(c.unjudged for c in cells)} unjudged, in {seconds:.1f} s; {where}",
          file=sys.stderr)
    if extra is not None:
        print(extra.summary(), file=sys.stderr)
    return 0


def judged_run(args: argparse.Namespace, run_dir: Path, *, write: bool = True
               ) -> tuple[list[JudgedRecord], bool, str, Any] | int:
    """Judge ``run_dir`` with ``args.judge``: (records, stored, rubric hash, the LLM judge's
    call summary or None), or the exit code of an LLM judge that stopped early."""
    from simulator.cli.judge_llm import is_llm_judge, run_llm_judge, stop_code
    from simulator.errors import UsageError
    from simulator.judge.deterministic import RUBRIC_HASH
    from simulator.judge.run import judge_run
    from simulator.runner.store import RunStore

    if run_dir.is_file():  # an archive: the judge table from its judge_* columns alone
        from simulator.stats.judged import judged_from_archive

        if args.judge != "deterministic" or is_llm_judge(args.judge):
            raise UsageError(f"--judge {args.judge}: an archive is recomputed with the judge "
                             "it was exported with (its header names it); drop --judge")
        rows, name, rubric = judged_from_archive(run_dir)
        args.judge = name
        return rows, False, rubric, None
    if not is_llm_judge(args.judge):
        judged, stored = judge_run(run_dir, args.judge, store_results=write)
        return judged, stored, RUBRIC_HASH, None
    with RunStore(run_dir, create=False) as store:
        call = run_llm_judge(args, store, write=write)
    code = stop_code(call)
    if code is not None:
        return code
    return call.run.judged, call.run.stored, call.judge.rubric_hash, call


def _compare(args: argparse.Namespace, weights_name: str,
             weights: dict[MetricName, float]) -> int:
    """``--compare RUN_B``: system a (RUN_DIR) against system b, task by task."""
    from simulator.errors import UsageError
    from simulator.stats.wilcoxon import compare

    sides = []
    for run_dir in (args.run_dir, args.compare):
        outcome = judged_run(args, run_dir, write=False)
        if isinstance(outcome, int):
            return outcome
        sides.append(outcome[0])
    judged_a, judged_b = sides
    rows = compare(judged_a, judged_b, weights, replicates=args.replicates, seed=args.seed)
    if not rows:
        raise UsageError(f"--compare {args.compare}: no task is judged in the same arm, "
                         f"scenario and mode in both runs, so there is nothing to pair")
    if args.json:
        print(json.dumps({"a": str(args.run_dir), "b": str(args.compare),
                          "judge": args.judge, "weights": weights_name,
                          "comparisons": [r.model_dump(mode="json") for r in rows]},
                         indent=2))
        return 0
    head = ["arm", "scenario", "mode", "pairs", "mean a", "mean b", "delta a-b [95% CI]",
            "Wilcoxon W", "p", "note"]
    lines = [f"## S_final, {args.run_dir} (a) vs {args.compare} (b): judge {args.judge}, "
             f"weights {weights_name}", "", "Per task: each side's mean S_final over its "
             "judged records of the task in the cell; pairs judged on both sides only. "
             "Paired Wilcoxon signed-rank test (two-sided), paired hierarchical bootstrap "
             "interval clustered on policy units.", "", _row(head), _row(["---"] * len(head))]
    for r in rows:
        lines.append(_row([r.arm, r.scenario, r.contract_mode, str(r.pairs),
                           f"{r.mean_a:.4f}", f"{r.mean_b:.4f}",
                           f"{r.delta:+.4f} [{r.low:+.3f}, {r.high:+.3f}]",
                           "n/a" if r.statistic is None else f"{r.statistic:g}",
                           "n/a" if r.p_value is None else f"{r.p_value:.4f}",
                           r.note or ""]))
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"
