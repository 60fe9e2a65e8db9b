"""``layerrag study``: the focused study preset, and any run's arms side by side.

``study focused`` selects one task per domain (the first whose clean uncontrolled record
with the deterministic reader is strictly correct), runs 9 conditions x 2 arms (uncontrolled,
controlled) in strict mode, one completion per cell, and prints the paper's Table 7 layout.
``study arms RUN_DIR`` compares the arms of any run: strict success and safe resolution per
arm x scenario, and incorrect interventions.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from simulator.cli.lists import output_path
from simulator.cli.live_options import add_live_options, add_source_priority_option
from simulator.cli.paths import check_output_dir
from simulator.cli.plugin_option import add_plugin_option
from simulator.cli.run_cmd import add_agent_option, add_pipeline_option

EXAMPLES = """examples:
  layerrag study focused --out runs/focused                  # deterministic reader
  layerrag study focused --out runs/focused-gpt --model openai:gpt-4o-mini
  layerrag study focused --out runs/focused-local --model openai:MODEL \
      --base-url http://127.0.0.1:8000/v1 --structured-output json_object --concurrency 2
  layerrag study focused --out runs/focused-open --pipeline open   # no built-in stops
  layerrag study arms runs/arms                              # after layerrag run --arms ...
"""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "study", help="the focused study preset; arms compared",
        description="Study presets built on the matrix runner.", epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    studies = parser.add_subparsers(dest="study", required=True, metavar="STUDY")

    focused = studies.add_parser(
        "focused", help="8 tasks x 9 conditions x 2 arms = 144 cells (paper §4.5)",
        description="The focused study: one task per domain, nine conditions, arms "
                    "uncontrolled and controlled, strict mode, one completion per cell. "
                    "Re-running resumes.", epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    focused.add_argument("--out", type=output_path, required=True, help="run directory")
    focused.add_argument("--model", default="deterministic",
                         help="reader: deterministic (default), openai:M, anthropic:M, ...")
    focused.add_argument("--base-url", default=None, help="OpenAI-compatible server URL")
    focused.add_argument("--seed", type=int, default=0, help="corpus and fault seed")
    focused.add_argument("--spec", type=Path, default=None, help="spec folder")
    focused.add_argument("--format", choices=("md", "json"), default="md")
    focused.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    add_pipeline_option(focused)
    add_agent_option(focused)
    add_plugin_option(focused)
    add_source_priority_option(focused)
    add_live_options(focused)
    focused.set_defaults(func=_focused)

    arms = studies.add_parser(
        "arms", help="arms side by side with incorrect interventions",
        description="Strict success and safe resolution per arm x scenario x mode, and "
                    "incorrect interventions (a controlled arm's non-answer on an answerable "
                    "record the baseline arm answered strictly correctly).")
    arms.add_argument("run_dir", type=Path, metavar="RUN_DIR")
    arms.add_argument("--baseline", default="uncontrolled", help="the reference arm")
    arms.add_argument("--format", choices=("md", "json"), default="md")
    arms.set_defaults(func=_arms)


def _focused(args: argparse.Namespace) -> int:
    from simulator.cli.live_run import (
        explain_agent_errors,
        explain_provider_errors,
        generation_for,
        run_records,
    )
    from simulator.cli.status import start_line

    check_output_dir(args.out, "--out")
    spec = str(args.spec) if args.spec else None
    generation = generation_for(args, (args.model,))
    start_line("study", f"focused study -> {args.out}: building the corpus and the runner",
               enabled=not args.no_progress)  # checked so far; the imports take seconds

    from pydantic import ValidationError

    from simulator.cli.run_cmd import config_error
    from simulator.corpus import build_corpus
    from simulator.evaluation.render import study_markdown
    from simulator.evaluation.study import read_study, select_tasks, study_config

    corpus = build_corpus(spec, args.seed)
    rows = select_tasks(corpus, seed=args.seed)
    fields = {"model": args.model, "seed": args.seed, "spec": spec, "base_url": args.base_url,
              "pipeline": args.pipeline, "agent": args.agent, "generation": generation,
              "source_priority": args.source_priority, "record_timeout": args.record_timeout}
    try:
        config = study_config(rows, **fields)
    except ValidationError as exc:  # e.g. --base-url with the deterministic reader
        raise config_error(exc, {**fields, "models": (args.model,)}) from None
    ran = run_records(config, args.out, args, corpus=corpus,
                      progress=False if args.no_progress else None)
    if not ran.complete:  # stopped (budget, Ctrl-C): re-run the command to resume
        return ran.exit_code
    study = read_study(args.out, rows)
    if args.format == "json":
        body = study.model_dump(mode="json")
        body["controlled_is_safe"] = study.controlled_is_safe()
        print(json.dumps(body, indent=2))
    else:
        sys.stdout.write(study_markdown(study))
    explain_provider_errors(ran.live)
    explain_agent_errors(ran.summary)
    return ran.exit_code


def _arms(args: argparse.Namespace) -> int:
    from simulator.agent.pipelines import pipeline_of
    from simulator.cli.run_arms import arm_definitions
    from simulator.evaluation.render import arms_markdown
    from simulator.runner.store import RunStore
    from simulator.stats.arms import arm_table

    with RunStore(args.run_dir, create=False) as store:
        cells = arm_table(list(store.records()), baseline=args.baseline)
        manifest = store.manifest()
        pipeline = pipeline_of(manifest)
    if args.format == "json":
        print(json.dumps([c.model_dump(mode="json") for c in cells], indent=2))
    else:
        sys.stdout.write(arms_markdown(cells, pipeline))
        sys.stdout.write(arms_defined(arm_definitions(manifest)))
    return 0


def arms_defined(definitions: dict[str, tuple[str, ...]]) -> str:
    """What each arm of the run is made of, as its manifest recorded it."""
    if not definitions:
        return ""
    lines = ["", "Arms of this run (from its manifest): "
             + "; ".join(f"`{name}` = {' + '.join(policies) or 'no policy'}"
                         for name, policies in definitions.items()) + ".", ""]
    return "\n".join(lines)
