"""Write a corpus to disk atomically.

Files are written into a temporary sibling folder and renamed into place only when all of
them are complete, so a failed build never leaves half-written output behind.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections import Counter
from pathlib import Path

from simulator.corpus.model import Corpus

FILES = ("documents.jsonl", "tasks.jsonl", "labels.jsonl", "manifest.json")


def manifest(corpus: Corpus) -> dict[str, object]:
    per_domain = Counter(d.domain for d in corpus.documents)
    per_status = Counter(d.status for d in corpus.documents)
    units = {lab.unit for lab in corpus.labels}
    return {
        "corpus": corpus.name,
        "seed": corpus.seed,
        "spec_hash": corpus.spec_hash,
        "corpus_hash": corpus.corpus_hash,
        "generator_version": corpus.generator_version,
        "counts": {
            "domains": len(corpus.domains),
            "units": len(units),
            "documents": len(corpus.documents),
            "tasks": len(corpus.tasks),
            "documents_per_domain": {d: per_domain[d] for d in corpus.domains},
            "documents_per_status": dict(sorted(per_status.items())),
        },
    }


def _jsonl(rows: list[dict[str, object]]) -> str:
    return "".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in rows)


def write_corpus(corpus: Corpus, out: Path) -> dict[str, object]:
    """Write the four corpus files into ``out`` all at once; return the manifest."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        info = manifest(corpus)
        contents = {
            "documents.jsonl": _jsonl([d.model_dump() for d in corpus.documents]),
            "tasks.jsonl": _jsonl([t.model_dump() for t in corpus.tasks]),
            "labels.jsonl": _jsonl([lab.model_dump() for lab in corpus.labels]),
            "manifest.json": json.dumps(info, indent=2, sort_keys=True) + "\n",
        }
        for name, text in contents.items():
            (staging / name).write_text(text, encoding="utf-8")
        out.mkdir(exist_ok=True)
        for name in FILES:
            os.replace(staging / name, out / name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return info

