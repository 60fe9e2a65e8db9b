"""``layerrag corpus build|validate``: generate the corpus from specs, or check a spec."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from simulator.corpus import generate_corpus, load_spec, write_corpus


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    corpus = subparsers.add_parser("corpus", help="build or validate a corpus spec")
    sub = corpus.add_subparsers(dest="corpus_command", required=True, metavar="ACTION")

    build = sub.add_parser(
        "build", help="generate documents, tasks and labels",
        description="Generate documents.jsonl, tasks.jsonl, labels.jsonl and manifest.json.",
        epilog="example: layerrag corpus build --out out/enterprise_v2",
    )
    build.add_argument("--spec", type=Path, default=None,
                       help="spec folder (default: the bundled enterprise_v2)")
    build.add_argument("--seed", type=int, default=0, help="id seed (default 0)")
    build.add_argument("--out", type=Path, required=True, help="output folder")
    build.set_defaults(func=_build)

    validate = sub.add_parser("validate", help="check a spec folder",
                              epilog="example: layerrag corpus validate --spec my_specs/")
    validate.add_argument("--spec", type=Path, default=None,
                          help="spec folder (default: the bundled enterprise_v2)")
    validate.set_defaults(func=_validate)


def _build(args: argparse.Namespace) -> int:
    corpus = generate_corpus(load_spec(args.spec), seed=args.seed)
    info = write_corpus(corpus, args.out)
    print(json.dumps(info, indent=2, sort_keys=True))
    return 0


def _validate(args: argparse.Namespace) -> int:
    spec = load_spec(args.spec)
    units = sum(len(d.units) for d in spec.domains)
    print(f"ok: {spec.corpus.name}: {len(spec.domains)} domains, {units} units, "
          f"{units * 2} documents, {units * 3} tasks (spec {spec.spec_hash[:12]})")
    return 0
