"""``layerrag credit --policy NAME``: layer credit of one mitigation policy.

Matched records with and without the policy (arm ``uncontrolled`` and the arm of the policy
alone) over all nine scenarios: the gain on the policy's target layer with a bootstrap
interval (nested, or ``--bootstrap crossed``) that says how many model units it covers,
every off-target scenario's change, the specificity margin and a verdict. The metric is
the outcome the policy claims: S for controls that restore evidence, safe resolution for
controls that withhold an answer (see simulator/evaluation/credit.py).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simulator.cli.live_options import add_live_options, add_source_priority_option
from simulator.cli.paths import check_output_dir
from simulator.cli.plugin_option import add_plugin_option
from simulator.cli.run_cmd import add_agent_option, add_pipeline_option, build_config
from simulator.report.cli_support import add_bootstrap_option

if TYPE_CHECKING:
    from simulator.cli.live_run import RecordsRun

EXAMPLES = """examples:
  layerrag credit --policy schema_repair                 # run both arms in a temp dir
  layerrag credit --policy session_isolation --json
  layerrag credit --policy bounded_retry --run runs/credit-retry   # run into / read a run
  layerrag credit --policy bounded_retry --run runs/arms --arm mine  # an arm the run named
  layerrag credit --policy access_aware_abstention --pipeline open  # no built-in stops
  layerrag credit --policy schema_repair --run runs/models --bootstrap crossed  # many models
"""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "credit", help="layer credit of a mitigation policy",
        description="Run (or read) matched records with and without a policy over all nine "
                    "scenarios and report its gain on its target layer, every off-target "
                    "change, the specificity margin and a verdict.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--policy", required=True, help="a registered policy name")
    parser.add_argument("--run", type=Path, default=None, metavar="RUN_DIR",
                        help="read this run if it holds records, else run into it "
                             "(default: a temporary directory)")
    parser.add_argument("--arm", default=None,
                        help="the arm holding the policy (default: the policy's name); with "
                             "--run, any arm the run was made with, by its name")
    parser.add_argument("--baseline", default="uncontrolled", help="the arm without it")
    parser.add_argument("--mode", default="strict", help="contract mode (default strict)")
    parser.add_argument("--model", default="deterministic", help="reader (default deterministic)")
    parser.add_argument("--base-url", default=None, help="OpenAI-compatible server URL")
    parser.add_argument("--tasks", type=int, default=None, help="only the first N tasks")
    parser.add_argument("--seed", type=int, default=0, help="corpus and fault seed (default 0)")
    parser.add_argument("--spec", type=Path, default=None, help="spec folder")
    parser.add_argument("--replicates", type=int, default=2000,
                        help="bootstrap replicates (default 2000)")
    parser.add_argument("--bootstrap-seed", type=int, default=0, help="bootstrap seed")
    add_bootstrap_option(parser)
    parser.add_argument("--metric", default=None, metavar="METRIC",
                        help="the outcome to credit (default: the policy's claim, S or "
                             "safe_resolution), or a judge metric (retrieval_correctness, "
                             "context_sufficiency, ..., s_final) scored by --judge")
    parser.add_argument("--judge", default="deterministic", metavar="NAME",
                        help="with a judge --metric: deterministic (default, computed here) "
                             "or an LLM judge whose judgments the --run store holds "
                             "(layerrag judge RUN --judge PROVIDER:MODEL first)")
    parser.add_argument("--json", action="store_true", help="print the credit as JSON")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    add_pipeline_option(parser, default=None,
                        note="; with --run, the pipeline the run was made with")
    add_agent_option(parser)
    add_plugin_option(parser)
    add_source_priority_option(parser)
    add_live_options(parser)
    parser.set_defaults(func=_credit)


def _records(args: argparse.Namespace, arm: str) -> tuple[list[Any] | None, str, RecordsRun]:
    """The records to judge, their pipeline and how running them ended: read from
    ``--run``, or run both arms (live models with the live options). None for records when
    a live run stopped before the end (its budget, Ctrl-C)."""
    from simulator.agent.pipelines import check_pipeline, pipeline_of
    from simulator.cli.live_run import RecordsRun, generation_for, run_records
    from simulator.errors import UsageError
    from simulator.runner.store import STORE_FILE, RunStore
    from simulator.vocabulary import DEFAULT_PIPELINE

    if args.pipeline is not None:
        check_pipeline(args.pipeline)

    def read(run_dir: Path) -> tuple[list[Any], dict[str, Any]]:
        with RunStore(run_dir, create=False) as store:
            return list(store.records()), store.manifest() or {}

    if args.run is not None and (args.run / STORE_FILE).is_file():  # read: may be read-only
        records, manifest = read(args.run)
        pipeline = pipeline_of(manifest)
        if args.pipeline not in (None, pipeline):
            raise UsageError(f"{args.run} was run with --pipeline {pipeline}, not "
                             f"{args.pipeline}; use another --run directory")
        theirs = (manifest.get("config") or {}).get("source_priority")
        if args.source_priority not in (None, theirs):
            raise UsageError(f"{args.run} was run with --source-priority "
                             f"{theirs or '(none)'}, not {args.source_priority}; use "
                             "another --run directory")
        return records, pipeline, RecordsRun(0, True)
    check_output_dir(args.run, "--run")
    generation = generation_for(args, (args.model,))
    config = build_config(models=(args.model,), scenarios=_scenarios_for(args.policy),
                          modes=(args.mode,),
                          arms=(args.baseline, arm), tasks=args.tasks, seed=args.seed,
                          spec=str(args.spec) if args.spec else None, base_url=args.base_url,
                          pipeline=args.pipeline or DEFAULT_PIPELINE, agent=args.agent,
                          generation=generation, source_priority=args.source_priority,
                          record_timeout=args.record_timeout)
    progress = False if args.no_progress else None

    def run_and_read(run_dir: Path) -> tuple[list[Any] | None, str, RecordsRun]:
        ran = run_records(config, run_dir, args, progress=progress)
        if not ran.complete:
            return None, config.pipeline, ran
        records, manifest = read(run_dir)
        return records, pipeline_of(manifest), ran

    if args.run is not None:
        return run_and_read(args.run)
    with tempfile.TemporaryDirectory(prefix="layerrag-credit-") as tmp:
        return run_and_read(Path(tmp))


def _scenarios_for(policy: str) -> tuple[str, ...]:
    """The nine reference scenarios, plus any declared outside them that target the
    policy's layers (evidence_integrity's misleading_*), so its own layer is measured."""
    from policies import get_policy
    from simulator.vocabulary import SCENARIO_LAYER, SCENARIO_NAMES, SCENARIO_ORDER

    layers = set(get_policy(policy).layers)
    return (*SCENARIO_NAMES, *(s for s in SCENARIO_ORDER
                               if s not in SCENARIO_NAMES and SCENARIO_LAYER[s] in layers))


def _metric_rows(args: argparse.Namespace, records: list[Any]) -> tuple[str, list[Any]]:
    """``--metric``: an outcome field as is, or a judge metric as the rows' judge score."""
    from simulator.errors import UsageError
    from simulator.evaluation.credit import METRICS as OUTCOME_METRICS
    from simulator.judge.metrics import METRIC_NAMES

    if args.metric in OUTCOME_METRICS:
        return args.metric, records
    if args.metric not in (*METRIC_NAMES, "s_final"):
        raise UsageError(f"--metric {args.metric}: neither an outcome "
                         f"({', '.join(OUTCOME_METRICS)}) nor a judge metric "
                         f"({', '.join(METRIC_NAMES)}, s_final)")
    return f"judge_{args.metric}", _judged(args, records)


def _judged(args: argparse.Namespace, records: list[Any]) -> list[Any]:
    from simulator.archive.export import stored_judge
    from simulator.corpus import build_corpus
    from simulator.errors import UsageError
    from simulator.judge.deterministic import JUDGE_NAME, judge_record, unjudged
    from simulator.judge.rows import judged_rows
    from simulator.judge.weights import PAPER
    from simulator.runner.store import STORE_FILE, RunStore

    stored_run = args.run is not None and (args.run / STORE_FILE).is_file()
    if args.judge != JUDGE_NAME:
        if not stored_run:
            raise UsageError(f"--judge {args.judge}: credit reads an LLM judge's stored "
                             "judgments: give --run RUN_DIR and judge it first (layerrag "
                             f"judge RUN_DIR --judge {args.judge})")
        with RunStore(args.run, create=False) as store:
            _, found = stored_judge(store, args.judge)
        return judged_rows(records, found, PAPER)
    spec, seed = (str(args.spec) if args.spec else None), args.seed
    if stored_run:
        with RunStore(args.run, create=False) as store:
            config = (store.manifest() or {}).get("config") or {}
        spec, seed = config.get("spec"), int(config.get("seed", 0))
    labels = {label.task_id: label for label in build_corpus(spec, seed).labels}
    judgments = {}
    for r in records:
        key = r.key.as_str()
        label = labels.get(r.task_id)
        judgments[key] = (judge_record(r, label) if label is not None else
                          unjudged(key, "no labels"))
    return judged_rows(records, judgments, PAPER)


def _credit(args: argparse.Namespace) -> int:
    from policies import get_arm, get_policy
    from simulator.cli.live_run import explain_agent_errors, explain_provider_errors
    from simulator.cli.run_arms import check_arm_in_run, register_arms_of_run
    from simulator.errors import UsageError
    from simulator.evaluation.credit import layer_credit
    from simulator.evaluation.render import credit_markdown

    get_policy(args.policy)
    arm = args.arm or args.policy
    if args.run is not None:  # a run's named arms mean what its manifest recorded
        definitions = register_arms_of_run(args.run)
        check_arm_in_run(args.run, arm, definitions, policy=args.policy)
        check_arm_in_run(args.run, args.baseline, definitions)
        others = [p for p in definitions.get(arm, ()) if p != args.policy]
        if others:
            print(f"note: arm {arm!r} is {'+'.join(definitions[arm])}: every change below is "
                  f"the whole arm's, not {args.policy}'s alone", file=sys.stderr)
    get_arm(arm)
    if args.replicates < 1:
        raise UsageError(f"--replicates must be at least 1, got {args.replicates}")
    if args.bootstrap_seed < 0:
        raise UsageError(f"--bootstrap-seed must be 0 or more, got {args.bootstrap_seed}")
    records, pipeline, ran = _records(args, arm)
    if records is None:  # a live run stopped: re-run the command (with --run) to resume
        return ran.exit_code
    metric = None
    if args.metric is not None:
        metric, records = _metric_rows(args, records)
    credit = layer_credit(records, args.policy, arm=arm, baseline=args.baseline, metric=metric,
                          contract_mode=args.mode, replicates=args.replicates,
                          seed=args.bootstrap_seed, pipeline=pipeline,
                          bootstrap=args.bootstrap)
    if args.json:
        print(json.dumps(credit.as_json(), indent=2))
    else:
        sys.stdout.write(credit_markdown(credit))
    explain_provider_errors(ran.live)
    explain_agent_errors(ran.summary)
    return ran.exit_code
