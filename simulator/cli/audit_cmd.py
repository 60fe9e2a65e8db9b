"""``layerrag audit retriever``: the deterministic retriever audit (paper §4.2, Table 3)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # heavy imports wait until the command runs
    from simulator.retrieval import RetrieverAudit

_EXAMPLES = """examples:
  layerrag audit retriever
  layerrag audit retriever --seed 3 --json > retriever_audit.json
  layerrag audit retriever --spec tests/fixtures/tiny_spec"""


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    audit = subparsers.add_parser("audit", help="deterministic audits without model calls")
    sub = audit.add_subparsers(dest="audit_command", required=True, metavar="WHAT")
    retriever = sub.add_parser(
        "retriever", help="recall, current-version preference and domain cues per retriever",
        description="Rank every task's question with every registered retriever on the clean "
                    "index, under corrupted status/year metadata and under corrupted domain "
                    "metadata; report required-document top-1/top-3 recall, the rate at "
                    "which the current version outranks its superseded twin, the domain "
                    "heuristic's correct/incorrect/unresolved counts, cross-domain "
                    "question collisions, cues shared by two domains and the questions on "
                    "which the cues tie.",
        epilog=_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    retriever.add_argument("--spec", type=Path, default=None,
                           help="spec folder (default: the bundled enterprise_v2)")
    retriever.add_argument("--seed", type=int, default=0,
                           help="seed of the metadata corruption (default 0)")
    retriever.add_argument("--json", action="store_true",
                           help="print one JSON document instead of the table")
    retriever.set_defaults(func=_retriever)


def _retriever(args: argparse.Namespace) -> int:
    from simulator.corpus import build_corpus
    from simulator.retrieval import audit_retrievers

    report = audit_retrievers(build_corpus(args.spec), seed=args.seed)
    print(report.model_dump_json(indent=2) if args.json else render_table(report))
    return 0


def render_table(report: RetrieverAudit) -> str:
    """The audit as a plain-text table for a terminal."""
    lines = [f"Retriever audit: {report.corpus} (corpus {report.corpus_hash}), "
             f"{report.tasks} tasks, corruption seed {report.seed}", ""]
    width = max(len(name) for name in (*report.retrievers, "retriever"))
    cond_width = max(len(c) for c in (*report.conditions, "condition"))
    lines.append(f"{'retriever':<{width}}  {'condition':<{cond_width}}  "
                 f"{'top-1':>6}  {'top-3':>6}  {'current first':>13}")
    for name in report.retrievers:
        for condition in report.conditions:
            cell = report.cell(name, condition)
            lines.append(f"{name:<{width}}  {condition:<{cond_width}}  "
                         f"{cell.top1_recall:>6.3f}  {cell.top3_recall:>6.3f}  "
                         f"{cell.current_preference:>13.3f}")
    counts = report.domain_heuristic
    lines += ["", f"Domain heuristic (query cue words only): {counts.correct} correct, "
                  f"{counts.incorrect} incorrect, {counts.unresolved} unresolved "
                  f"of {counts.total}"]
    lines += ["", "Cross-domain collisions (one question, several domains; "
                  "is each task's required document ranked first on the clean index?):"]
    if not report.collisions:
        lines.append("  none: no question text is shared by tasks of different domains")
    for collision in report.collisions:
        lines.append(f"  {collision.question!r}")
        for task in collision.tasks:
            verdicts = ", ".join(f"{name} {'yes' if ok else 'no'}"
                                 for name, ok in task.top1.items())
            cue = task.inferred_domain or "unresolved"
            lines.append(f"    {task.domain} (row {task.row}, cues: {cue}): {verdicts}")
    return "\n".join(lines + _cue_lines(report))


def _cue_lines(report: RetrieverAudit) -> list[str]:
    lines = ["", "Shared cues (a cue of one domain that matches a cue of another):"]
    if not report.cue_collisions:
        lines.append("  none: every cue belongs to one domain")
    for shared in report.cue_collisions:
        lines.append(f"  {shared.cue!r} ({shared.domain}) = {shared.other_cue!r} "
                     f"({shared.other_domain}): in {len(shared.rows)} questions, "
                     f"ties {len(shared.tied_rows)}")
    lines += ["", "Cue ties (as many cues of two domains or more: the heuristic leaves the "
                  "question unresolved; is the required document ranked first?):"]
    if not report.ties:
        lines.append("  none: no question matches two domains' cues equally")
    for tie in report.ties:
        verdicts = ", ".join(f"{name} {'yes' if ok else 'no'}" for name, ok in tie.top1.items())
        lines.append(f"  row {tie.row} {tie.domain}, tied {' = '.join(tie.tied)}: "
                     f"{tie.question!r}")
        lines.append(f"    {verdicts}")
    return lines
