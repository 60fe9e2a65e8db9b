"""Write a generated case corpus to disk: what an agent may see apart from what only the
evaluator may, written atomically.

The layout mirrors enterprise_v2's (:func:`simulator.corpus.io.write_corpus`): one JSON line
per record, a manifest with the corpus hash, seed and generator version. The agent-visible
files are written from :meth:`CaseCorpus.published`, which drops the labels, so no label can
reach them by construction; the labels go to a file of their own, which a harness keeps from
the agent. The manifest lists which file is which and counts only what the agent-visible
files already show.

Files are written into a temporary sibling folder and renamed into place only when all of
them are complete, so a failed build never leaves half-written output behind.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from simulator.cases.model import CaseCorpus
from simulator.corpus.io import identity, jsonl, write_files

AGENT_VISIBLE = ("cases.jsonl", "documents.jsonl")
"""``cases.jsonl``: one :class:`~simulator.cases.model.Case` per line (the ticket as filed,
its session and its turns as the agent receives them); ``documents.jsonl``: one
:class:`~simulator.corpus.model.Document` per line, every version with its lineage."""
EVALUATOR_ONLY = ("case_labels.jsonl",)
"""One :class:`~simulator.cases.model.CaseLabels` per line, in case order: the issue,
identifiers, workflow, and each turn's kind, answer type and expected, accepted and stale
values. Never given to the agent."""
MANIFEST = "manifest.json"
FILES = (*AGENT_VISIBLE, *EVALUATOR_ONLY, MANIFEST)


def case_manifest(corpus: CaseCorpus) -> dict[str, object]:
    """The corpus's identity and counts (nothing a label says: no kind, no value)."""
    per_domain = Counter(d.domain for d in corpus.documents)
    per_status = Counter(d.status for d in corpus.documents)
    return {
        **identity(corpus),
        "agent_visible": list(AGENT_VISIBLE),
        "evaluator_only": list(EVALUATOR_ONLY),
        "counts": {
            "domains": len(corpus.domains),
            "cases": len(corpus.cases),
            "turns": corpus.turn_count(),
            "documents": len(corpus.documents),
            "documents_per_domain": {d: per_domain[d] for d in corpus.domains},
            "documents_per_status": dict(sorted(per_status.items())),
        },
    }


def write_case_corpus(corpus: CaseCorpus, out: Path) -> dict[str, object]:
    """Write the four files into ``out`` all at once; return the manifest."""
    public = corpus.published()
    info = case_manifest(corpus)
    contents = {
        "cases.jsonl": jsonl([c.model_dump(mode="json") for c in public.cases]),
        "documents.jsonl": jsonl([d.model_dump(mode="json") for d in public.documents]),
        "case_labels.jsonl": jsonl([lab.model_dump(mode="json") for lab in corpus.labels]),
        MANIFEST: json.dumps(info, indent=2, sort_keys=True) + "\n",
    }
    write_files(Path(out), {name: contents[name] for name in FILES})
    return info


__all__ = ["AGENT_VISIBLE", "EVALUATOR_ONLY", "FILES", "MANIFEST", "case_manifest",
           "write_case_corpus"]
