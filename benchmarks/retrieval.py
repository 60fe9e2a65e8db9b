"""Retrieval speed: index build time and per-query latency, at corpus scale 1x and 100x.

    /work/venv/bin/python benchmarks/retrieval.py [--scale 100] [--retriever NAME] [--repeat 3]

The scaled corpus replicates every policy unit with fresh document ids, a replica tag in the
title (so each replica stays its own current/superseded family) and shifted numbers in the
prose (fresh values). Every task question is then asked of the scaled index. Per-query cost
should grow far less than the corpus: a query is one sparse product over the query's terms'
columns and a few numpy sorts, with no Python loop over documents.
"""

from __future__ import annotations

import argparse
import re
import statistics
import time
from collections.abc import Sequence

from simulator.corpus import Corpus, Document, build_corpus
from simulator.retrieval import (
    DEFAULT_RETRIEVER,
    DEFAULT_TOP_K,
    DocumentIndex,
    RetrievalContext,
    Retriever,
    get_retriever,
)

_NUMBER = re.compile(r"\d+")


def scaled_documents(documents: Sequence[Document], scale: int) -> list[Document]:
    """``scale`` copies of the documents; copy 0 is the original."""
    out = list(documents)
    for replica in range(1, scale):
        def shift(match: re.Match[str], by: int = replica) -> str:
            return str(int(match.group()) + by)

        for doc in documents:
            out.append(doc.model_copy(update={
                "doc_id": f"{doc.doc_id}-r{replica}",
                "title": f"{doc.title} (site {replica})",
                "text": _NUMBER.sub(shift, doc.text),
            }))
    return out


def build_seconds(corpus: Corpus, documents: Sequence[Document]) -> tuple[DocumentIndex, float]:
    start = time.perf_counter()
    index = DocumentIndex.from_corpus(corpus, documents)
    return index, time.perf_counter() - start


def query_latencies(retriever: Retriever, index: DocumentIndex, corpus: Corpus,
                    repeat: int) -> list[float]:
    """Per-question latency in seconds: the best of ``repeat`` runs of each question."""
    contexts = [RetrievalContext(session=t.session) for t in corpus.tasks]
    best = [float("inf")] * len(corpus.tasks)
    for _ in range(repeat):
        for i, (task, context) in enumerate(zip(corpus.tasks, contexts, strict=True)):
            start = time.perf_counter()
            retriever(index, task.question, context, top_k=DEFAULT_TOP_K)
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=int, default=100)
    parser.add_argument("--retriever", default=DEFAULT_RETRIEVER)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)

    corpus = build_corpus()
    retriever = get_retriever(args.retriever)
    retriever(DocumentIndex.from_corpus(corpus), "warm up", RetrievalContext())
    rows = []
    for scale in (1, args.scale):
        docs = scaled_documents(corpus.documents, scale)
        index, built = build_seconds(corpus, docs)
        latencies = query_latencies(retriever, index, corpus, args.repeat)
        rows.append((scale, len(docs), built, statistics.mean(latencies),
                     statistics.median(latencies), sum(latencies)))
    print(f"retriever {args.retriever}, top_k {DEFAULT_TOP_K}, {len(corpus.tasks)} queries, "
          f"best of {args.repeat}")
    print(f"{'scale':>5}  {'documents':>9}  {'build s':>8}  {'mean ms/q':>9}  "
          f"{'median ms/q':>11}  {'build+all queries s':>19}")
    for scale, n, built, mean, median, total in rows:
        print(f"{scale:>4}x  {n:>9}  {built:>8.3f}  {mean * 1e3:>9.3f}  {median * 1e3:>11.3f}  "
              f"{built + total:>19.3f}")
    ratio = rows[1][3] / rows[0][3]
    print(f"per-query latency ratio {args.scale}x / 1x: {ratio:.1f} "
          f"(corpus grew {rows[1][1] / rows[0][1]:.0f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
