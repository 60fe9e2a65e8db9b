"""``layerrag corpus build|validate``: generate the corpus from specs, or check a spec.

``validate`` works like a linter: it prints every problem of the spec on standard output, one
line each (``error: file: unit ID: field: message`` or ``warning: ...``), then the verdict:
``ok: ...`` on standard output, or one ``error:`` line on standard error and exit 2. Warnings
are what may be deliberate: a question asked in two domains, a cue two domains share, prose
the extractive reader misreads. ``build`` (like every other command reading a spec) refuses
a spec with errors in one line, the first error and how many more there are.

Both read either kind of spec: enterprise_v2's ``[[units]]`` (docs/corpus.md) and multi-turn
``[[cases]]`` (docs/cases.md). A ``--spec`` folder is read as what its domain files hold
(:func:`simulator.cases.detect.spec_tables`); ``--suite``, the word ``layerrag run`` uses,
picks the bundled spec when there is no ``--spec`` and is checked against the folder when
there is one, so a case folder is never linted as enterprise_v2 or the other way round.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import get_args

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
from simulator.errors import UsageError
from simulator.runner.config import RunConfig

SUITES: tuple[str, ...] = get_args(RunConfig.model_fields["suite"].annotation)
"""``enterprise`` and ``cases``: ``layerrag run --suite``'s words, taken from its config."""
_SUITE_OF_TABLES = {"units": "enterprise", "cases": "cases"}
_KIND = {"enterprise": "an enterprise_v2 spec ([[units]], docs/corpus.md)",
         "cases": "a case spec ([[cases]], docs/cases.md)"}

_VALIDATE_EXAMPLES = """examples:
  layerrag corpus validate                              # the bundled enterprise_v2
  layerrag corpus validate --spec examples/corpus_natural
  layerrag corpus validate --spec my_specs/ --strict    # warnings fail too
  layerrag corpus validate --suite cases                # the bundled cases_v1
  layerrag corpus validate --spec my_cases/             # a case spec, told by its files"""
_SPEC_HELP = ("spec folder, enterprise_v2 [[units]] or multi-turn [[cases]], read as what its "
              "files hold (default: the bundled spec of --suite)")
_SUITE_HELP = ("enterprise or cases, as in layerrag run: without --spec, the bundled "
               "enterprise_v2 (default) or cases_v1; with --spec, it must be what the folder "
               "holds")


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    corpus = subparsers.add_parser("corpus", help="build or validate a corpus spec")
    sub = corpus.add_subparsers(dest="corpus_command", required=True, metavar="ACTION")

    build = sub.add_parser(
        "build", help="generate documents, tasks and labels",
        description="Generate documents.jsonl, tasks.jsonl, labels.jsonl and manifest.json; "
                    "for a case spec, cases.jsonl and documents.jsonl (what an agent sees), "
                    "case_labels.jsonl (evaluator-only) and manifest.json. A spec with errors "
                    "writes nothing.",
        epilog="examples:\n  layerrag corpus build --out out/enterprise_v2\n"
               "  layerrag corpus build --suite cases --out out/cases_v1",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    build.add_argument("--spec", type=Path, default=None, help=_SPEC_HELP)
    build.add_argument("--suite", choices=SUITES, default=None, help=_SUITE_HELP)
    build.add_argument("--seed", type=int, default=0, help="id seed (default 0)")
    build.add_argument("--out", type=output_path, required=True, help="output folder")
    build.set_defaults(func=_build)

    validate = sub.add_parser(
        "validate", help="check a spec folder and report every problem",
        description="Check every file of a spec folder and report every problem in one run: "
                    "errors (exit 2) and warnings. docs/corpus.md describes the enterprise_v2 "
                    "format, docs/cases.md the case format.",
        epilog=_VALIDATE_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    validate.add_argument("--spec", type=Path, default=None, help=_SPEC_HELP)
    validate.add_argument("--suite", choices=SUITES, default=None, help=_SUITE_HELP)
    validate.add_argument("--strict", action="store_true",
                          help="exit 2 on warnings too")
    validate.set_defaults(func=_validate)


def suite_of(spec: Path | None, suite: str | None) -> str:
    """The suite a command reads: ``--suite`` as given, else what the ``--spec`` folder
    holds, else enterprise (the bundled enterprise_v2). A folder holding the other kind than
    ``--suite`` names is refused in one line, as is a folder holding both kinds."""
    from simulator.cases.detect import spec_tables

    tables = spec_tables(spec) if spec is not None else None
    held = _SUITE_OF_TABLES[tables] if tables is not None else None
    if suite is not None and held is not None and held != suite:
        fix = "use --suite cases, or" if held == "cases" else "to read it as it is,"
        raise UsageError(f"--suite {suite}: {spec} is {_KIND[held]}, not {_KIND[suite]}; "
                         f"{fix} leave --suite out")
    return suite or held or "enterprise"


def _by_file(problems: Sequence[Problem]) -> list[Problem]:
    """File by file, corpus.toml first; within a file, in the order found."""
    return sorted(problems, key=lambda p: (Path(p.file).name != CORPUS_FILE, p.file))


def _problems(check: SpecCheck, *, prose: bool) -> list[Problem]:
    """The spec's own problems, its cues', and (with ``prose``, when valid) its prose's."""
    from simulator.corpus.lint import prose_warnings, prose_warnings_of_files
    from simulator.retrieval.cue_audit import cue_problems

    problems = [*check.problems, *cue_problems(check)]
    if prose:  # shown with the errors too: every unit that validated is read
        problems += (prose_warnings(check.spec) if check.spec is not None
                     else prose_warnings_of_files(check))
    return _by_file(problems)


def _build(args: argparse.Namespace) -> int:
    if suite_of(args.spec, args.suite) == "cases":
        return _build_cases(args)
    check = check_spec(args.spec)
    errors = [p for p in _problems(check, prose=False) if p.severity == "error"]
    if errors or check.spec is None:  # a spec is None only when there are errors
        raise SpecProblems(errors, validate="layerrag corpus validate" + (
            f" --spec {shlex.quote(str(args.spec))}" if args.spec is not None else ""))
    info = write_corpus(generate_corpus(check.spec, seed=args.seed), args.out)
    print(json.dumps(info, indent=2, sort_keys=True))
    return 0


def _build_cases(args: argparse.Namespace) -> int:
    from simulator.cases import generate_case_corpus, load_case_spec
    from simulator.cases.io import write_case_corpus

    spec = load_case_spec(args.spec)  # errors: the first, and the command listing them all
    info = write_case_corpus(generate_case_corpus(spec, seed=args.seed), args.out)
    print(json.dumps(info, indent=2, sort_keys=True))
    return 0


def _validate(args: argparse.Namespace) -> int:
    if suite_of(args.spec, args.suite) == "cases":
        return _validate_cases(args)
    check = check_spec(args.spec)
    problems = _problems(check, prose=True)
    where = args.spec if args.spec is not None else "the bundled enterprise_v2"
    spec = check.spec
    if spec is None:
        return _verdict(problems, where, None, strict=args.strict)
    units = sum(len(d.units) for d in spec.domains)
    return _verdict(problems, where,
                    f"{spec.corpus.name}: {len(spec.domains)} domains, {units} units, "
                    f"{units * 2} documents, {units * 3} tasks (spec {spec.spec_hash[:12]})",
                    strict=args.strict)


def _validate_cases(args: argparse.Namespace) -> int:
    from simulator.cases import check_case_spec
    from simulator.cases.loader import BUNDLED

    check = check_case_spec(args.spec)
    where = args.spec if args.spec is not None else f"the bundled {BUNDLED}"
    spec = check.spec
    if spec is None:
        return _verdict(_by_file(check.problems), where, None, strict=args.strict)
    cases = [case for domain in spec.domains for case in domain.cases]
    turns = sum(len(case.turns) for case in cases)
    documents = sum(len(case.documents) for case in cases)
    return _verdict(_by_file(check.problems), where,
                    f"{spec.corpus.name}: {len(spec.domains)} domains, {len(cases)} cases, "
                    f"{turns} turns, {documents} documents (spec {spec.spec_hash[:12]})",
                    strict=args.strict)


def _verdict(problems: Sequence[Problem], where: object, holds: str | None, *,
             strict: bool) -> int:
    """Print every problem, then ``ok: HOLDS`` (None: the spec did not validate) or one
    ``error:`` line on standard error; the exit code (2 on errors, and on warnings with
    ``strict``)."""
    for problem in problems:
        print(f"{problem.severity}: {problem.line()}")
    errors = sum(p.severity == "error" for p in problems)
    warnings = len(problems) - errors
    counts = f"{_plural(errors, 'error')}, {_plural(warnings, 'warning')}"
    if errors or holds is None:
        print(f"error: {where}: {counts}", file=sys.stderr)
        return 2
    note = f", {_plural(warnings, 'warning')}" if warnings else ""
    print(f"ok: {holds}{note}")
    if strict and warnings:
        print(f"error: {where}: {counts} (--strict)", file=sys.stderr)
        return 2
    return 0


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"
