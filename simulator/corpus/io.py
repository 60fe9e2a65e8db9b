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
from typing import Protocol

from simulator.corpus.model import Corpus

FILES = ("documents.jsonl", "tasks.jsonl", "labels.jsonl", "manifest.json")


class Generated(Protocol):
    """A generated corpus of either kind (enterprise_v2's or a case corpus)."""

    @property
    def name(self) -> str: ...
    @property
    def seed(self) -> int: ...
    @property
    def spec_hash(self) -> str: ...
    @property
    def corpus_hash(self) -> str: ...
    @property
    def generator_version(self) -> str: ...


def identity(corpus: Generated) -> dict[str, object]:
    """What names a generated corpus in its manifest: its name, seed and hashes."""
    return {"corpus": corpus.name, "seed": corpus.seed, "spec_hash": corpus.spec_hash,
            "corpus_hash": corpus.corpus_hash, "generator_version": corpus.generator_version}


def manifest(corpus: Corpus) -> dict[str, object]:
    per_domain = Counter(d.domain for d in corpus.documents)
    per_status = Counter(d.status for d in corpus.documents)
    units = {lab.unit for lab in corpus.labels}
    return {
        **identity(corpus),
        "counts": {
            "domains": len(corpus.domains),
            "units": len(units),
            "documents": len(corpus.documents),
            "tasks": len(corpus.tasks),
            "documents_per_domain": {d: per_domain[d] for d in corpus.domains},
            "documents_per_status": dict(sorted(per_status.items())),
        },
    }


def jsonl(rows: list[dict[str, object]]) -> str:
    """One JSON object per line, keys sorted (a corpus file's form)."""
    return "".join(json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n" for r in rows)


def write_files(out: Path, contents: dict[str, str]) -> None:
    """Write every file of ``contents`` (name -> text) into ``out`` at once: into a
    temporary sibling folder first, renamed into place only when all are complete."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        for name, text in contents.items():
            (staging / name).write_text(text, encoding="utf-8")
        out.mkdir(exist_ok=True)
        for name in contents:
            os.replace(staging / name, out / name)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def write_corpus(corpus: Corpus, out: Path) -> dict[str, object]:
    """Write the four corpus files into ``out`` all at once; return the manifest."""
    info = manifest(corpus)
    write_files(Path(out), {
        "documents.jsonl": jsonl([d.model_dump() for d in corpus.documents]),
        "tasks.jsonl": jsonl([t.model_dump() for t in corpus.tasks]),
        "labels.jsonl": jsonl([lab.model_dump() for lab in corpus.labels]),
        "manifest.json": json.dumps(info, indent=2, sort_keys=True) + "\n",
    })
    return info
