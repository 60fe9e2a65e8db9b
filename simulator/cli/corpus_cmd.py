"""``layerrag corpus build|validate``: generate the corpus from specs, or check a spec.

``validate`` works like a linter: it prints every problem of the spec on standard output, one
line each (``error: file: unit ID: field: message`` or ``warning: ...``), then the verdict:
``ok: ...`` on standard output, or one ``error:`` line on standard error and exit 2. Warnings
are what may be deliberate: a question asked in two domains, a cue two domains share, prose
the extractive reader misreads. ``build`` (like every other command reading a spec) refuses
a spec with errors in one line, the first error and how many more there are.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from simulator.cli.lists import output_path
from simulator.corpus import (
    Problem,
    SpecCheck,
    SpecProblems,
    check_spec,
    generate_corpus,
    write_corpus,
)
from simulator.corpus.loader import CORPUS_FILE

_VALIDATE_EXAMPLES = """examples:
  layerrag corpus validate                              # the bundled enterprise_v2
  layerrag corpus validate --spec examples/corpus_natural
  layerrag corpus validate --spec my_specs/ --strict    # warnings fail too"""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    corpus = subparsers.add_parser("corpus", help="build or validate a corpus spec")
    sub = corpus.add_subparsers(dest="corpus_command", required=True, metavar="ACTION")

    build = sub.add_parser(
        "build", help="generate documents, tasks and labels",
        description="Generate documents.jsonl, tasks.jsonl, labels.jsonl and manifest.json. "
                    "A spec with errors writes nothing.",
        epilog="example: layerrag corpus build --out out/enterprise_v2",
    )
    build.add_argument("--spec", type=Path, default=None,
                       help="spec folder (default: the bundled enterprise_v2)")
    build.add_argument("--seed", type=int, default=0, help="id seed (default 0)")
    build.add_argument("--out", type=output_path, required=True, help="output folder")
    build.set_defaults(func=_build)

    validate = sub.add_parser(
        "validate", help="check a spec folder and report every problem",
        description="Check every file of a spec folder and report every problem in one run: "
                    "errors (exit 2) and warnings. docs/corpus.md describes the format.",
        epilog=_VALIDATE_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    validate.add_argument("--spec", type=Path, default=None,
                          help="spec folder (default: the bundled enterprise_v2)")
    validate.add_argument("--strict", action="store_true",
                          help="exit 2 on warnings too")
    validate.set_defaults(func=_validate)


def _problems(check: SpecCheck, *, prose: bool) -> list[Problem]:
    """The spec's own problems, its cues', and (with ``prose``, when valid) its prose's."""
    from simulator.corpus.lint import prose_warnings, prose_warnings_of_files
    from simulator.retrieval.cue_audit import cue_problems

    problems = [*check.problems, *cue_problems(check)]
    if prose:  # shown with the errors too: every unit that validated is read
        problems += (prose_warnings(check.spec) if check.spec is not None
                     else prose_warnings_of_files(check))
    # File by file, corpus.toml first; within a file, in the order found.
    return sorted(problems, key=lambda p: (Path(p.file).name != CORPUS_FILE, p.file))


def _build(args: argparse.Namespace) -> int:
    check = check_spec(args.spec)
    errors = [p for p in _problems(check, prose=False) if p.severity == "error"]
    if errors or check.spec is None:
        raise SpecProblems(errors)  # a spec is None only when there are errors
    info = write_corpus(generate_corpus(check.spec, seed=args.seed), args.out)
    print(json.dumps(info, indent=2, sort_keys=True))
    return 0


def _validate(args: argparse.Namespace) -> int:
    check = check_spec(args.spec)
    problems = _problems(check, prose=True)
    for problem in problems:
        print(f"{problem.severity}: {problem.line()}")
    errors = sum(p.severity == "error" for p in problems)
    warnings = len(problems) - errors
    counts = f"{_plural(errors, 'error')}, {_plural(warnings, 'warning')}"
    where = args.spec if args.spec is not None else "the bundled enterprise_v2"
    if errors or check.spec is None:
        print(f"error: {where}: {counts}", file=sys.stderr)
        return 2
    spec = check.spec
    units = sum(len(d.units) for d in spec.domains)
    note = f", {_plural(warnings, 'warning')}" if warnings else ""
    print(f"ok: {spec.corpus.name}: {len(spec.domains)} domains, {units} units, "
          f"{units * 2} documents, {units * 3} tasks (spec {spec.spec_hash[:12]}){note}")
    if args.strict and warnings:
        print(f"error: {where}: {counts} (--strict)", file=sys.stderr)
        return 2
    return 0


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
