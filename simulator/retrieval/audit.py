"""The deterministic retriever audit (paper §4.2, Table 3): recall, preference, domain cues.

For every registered retriever and every condition the audit ranks the whole index for each
task's question and reports:

- required-document top-1 and top-3 recall: every required document is among the first 1
  (or 3) hits;
- the current-version preference rate: the task's current document is ranked above its
  superseded twin in the retriever's full ranking. A twin missing from the ranking (a filter
  dropped it) counts as ranked below; a current document missing from the ranking counts as
  not preferred. The denominator is always every task, so rates compare across retrievers.

Conditions: ``clean`` (the corpus as generated), ``corrupted_metadata`` (status and
effective year corrupted by the seed) and ``corrupted_domain_metadata`` (every document's
domain deranged). Corruption swaps metadata only; the TF-IDF fit stays the same.

It also counts how the query-side domain heuristic fares against the labelled domains and
follows what makes a question's domain ambiguous:

- cross-domain collisions: an exact question text asked by tasks of different domains, which
  no label-free retriever can answer right for both;
- shared cues: a cue of one domain that matches a cue of another, with the tasks whose
  question contains it;
- ties: tasks whose question matches as many cues of two domains or more, so the heuristic
  leaves them unresolved although it found cues.

Labels are read here, by the evaluator, and passed to retrievers only as
``RetrievalContext.task_domain``, which only ``task_domain_filter`` reads.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from simulator.corpus.model import Corpus, Labels
from simulator.errors import UsageError
from simulator.retrieval.base import RetrievalContext, Retriever, retrievers
from simulator.retrieval.corruption import DOMAIN_FIELDS, VALIDITY_FIELDS, corrupt_metadata
from simulator.retrieval.cue_audit import matches, shared_cues
from simulator.retrieval.domain_cues import DomainCues
from simulator.retrieval.index import DocumentIndex

Condition = Literal["clean", "corrupted_metadata", "corrupted_domain_metadata"]
CONDITIONS: tuple[Condition, ...] = ("clean", "corrupted_metadata", "corrupted_domain_metadata")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RecallCell(_Frozen):
    """One retriever under one condition, over every task."""

    retriever: str
    condition: Condition
    tasks: int
    top1: int
    """Tasks whose required documents are all ranked first (one required document each)."""
    top3: int
    preferred: int
    """Tasks whose current document is ranked above its superseded twin."""
    top1_recall: float
    top3_recall: float
    current_preference: float


class DomainHeuristicCounts(_Frozen):
    """The query-side domain heuristic against the labelled domains."""

    correct: int
    incorrect: int
    unresolved: int
    total: int


class CollisionTask(_Frozen):
    """One task asking a question that a task of another domain asks word for word."""

    task_id: str
    row: int
    domain: str
    """The task's labelled domain."""
    inferred_domain: str | None
    top1: dict[str, bool]
    """Retriever -> whether this task's required document is ranked first (clean index)."""


class Collision(_Frozen):
    question: str
    tasks: tuple[CollisionTask, ...]


class CueCollision(_Frozen):
    """A cue of one domain that matches a cue of another: it counts for both."""

    cue: str
    domain: str
    other_cue: str
    other_domain: str
    rows: tuple[int, ...]
    """Tasks whose question contains the cue."""
    tied_rows: tuple[int, ...]
    """Of those, the tasks on which the heuristic ties."""


class CueTie(_Frozen):
    """A task whose question matches equally many cues of two or more domains."""

    task_id: str
    row: int
    domain: str
    """The task's labelled domain."""
    question: str
    tied: tuple[str, ...]
    """The domains sharing the most cue hits, in corpus order."""
    top1: dict[str, bool]
    """Retriever -> whether this task's required document is ranked first (clean index)."""


class RetrieverAudit(_Frozen):
    """Everything ``layerrag audit retriever`` prints."""

    corpus: str
    corpus_hash: str
    seed: int
    """Seed of the metadata corruption."""
    tasks: int
    retrievers: tuple[str, ...]
    conditions: tuple[Condition, ...]
    cells: tuple[RecallCell, ...]
    domain_heuristic: DomainHeuristicCounts
    collisions: tuple[Collision, ...]
    cue_collisions: tuple[CueCollision, ...] = ()
    ties: tuple[CueTie, ...] = ()

    def cell(self, retriever: str, condition: Condition) -> RecallCell:
        """The cell of one retriever under one condition."""
        for cell in self.cells:
            if cell.retriever == retriever and cell.condition == condition:
                return cell
        raise UsageError(f"no audit cell for retriever {retriever!r} under {condition!r}")


def condition_index(corpus: Corpus, condition: Condition, seed: int,
                    clean: DocumentIndex | None = None) -> DocumentIndex:
    """The index a condition searches: the clean one, or it under corrupted metadata."""
    base = clean if clean is not None else DocumentIndex.from_corpus(corpus)
    if condition == "clean":
        return base
    fields = VALIDITY_FIELDS if condition == "corrupted_metadata" else DOMAIN_FIELDS
    return base.with_metadata(corrupt_metadata(base.documents, seed=seed, fields=fields),
                              snapshot_id=f"{base.snapshot_id}+{condition}")


def audit_retrievers(corpus: Corpus, *, seed: int = 0,
                     names: Sequence[str] | None = None) -> RetrieverAudit:
    """Audit ``names`` (default: every registered retriever) on every task of ``corpus``."""
    names = tuple(names) if names is not None else tuple(retrievers.names())
    chosen = {name: retrievers.get(name) for name in names}
    clean = DocumentIndex.from_corpus(corpus)
    contexts = [RetrievalContext(session=t.session, task_domain=lab.domain)
                for t, lab in zip(corpus.tasks, corpus.labels, strict=True)]
    cells = []
    clean_top1: dict[str, list[bool]] = {}
    for condition in CONDITIONS:
        index = condition_index(corpus, condition, seed, clean)
        for name, retriever in chosen.items():
            rankings = [_ranking(retriever, index, t.question, ctx)
                        for t, ctx in zip(corpus.tasks, contexts, strict=True)]
            cells.append(_cell(name, condition, rankings, corpus.labels))
            if condition == "clean":
                clean_top1[name] = [_found(r[:1], lab) for r, lab in
                                    zip(rankings, corpus.labels, strict=True)]
    return RetrieverAudit(
        corpus=corpus.name, corpus_hash=corpus.corpus_hash, seed=seed, tasks=len(corpus.tasks),
        retrievers=names, conditions=CONDITIONS, cells=tuple(cells),
        domain_heuristic=domain_heuristic_counts(corpus),
        collisions=_collisions(corpus, clean_top1),
        cue_collisions=cue_collisions(corpus),
        ties=_ties(corpus, clean_top1),
    )


def domain_heuristic_counts(corpus: Corpus) -> DomainHeuristicCounts:
    """Correct / incorrect / unresolved counts of the cue heuristic over every task."""
    cues = DomainCues.of(corpus.cues)
    counts = {"correct": 0, "incorrect": 0, "unresolved": 0}
    for task, labels in zip(corpus.tasks, corpus.labels, strict=True):
        inferred = cues.infer(task.question).domain
        key = "unresolved" if inferred is None else (
            "correct" if inferred == labels.domain else "incorrect")
        counts[key] += 1
    return DomainHeuristicCounts(**counts, total=len(corpus.tasks))


def _ranking(retriever: Retriever, index: DocumentIndex, query: str,
             context: RetrievalContext) -> list[str]:
    return [hit.doc_id for hit in retriever(index, query, context, top_k=len(index))]


def _found(ranked: Sequence[str], labels: Labels) -> bool:
    return all(doc_id in ranked for doc_id in labels.required_doc_ids)


def prefers_current(ranked: Sequence[str], labels: Labels) -> bool:
    """Whether ``ranked`` puts the task's current document(s) above every superseded twin.

    A twin missing from the ranking counts as ranked below everything; a current document
    missing from it means the current version was not preferred.
    """
    place = {doc_id: i for i, doc_id in enumerate(ranked)}
    if any(doc_id not in place for doc_id in labels.required_doc_ids):
        return False
    worst_current = max(place[doc_id] for doc_id in labels.required_doc_ids)
    return all(place.get(doc_id, len(ranked)) > worst_current
               for doc_id in labels.superseded_doc_ids)


def _cell(name: str, condition: Condition, rankings: Sequence[Sequence[str]],
          labels: Sequence[Labels]) -> RecallCell:
    n = len(labels)
    top1 = sum(_found(r[:1], lab) for r, lab in zip(rankings, labels, strict=True))
    top3 = sum(_found(r[:3], lab) for r, lab in zip(rankings, labels, strict=True))
    preferred = sum(prefers_current(r, lab) for r, lab in zip(rankings, labels, strict=True))
    return RecallCell(retriever=name, condition=condition, tasks=n, top1=top1, top3=top3,
                      preferred=preferred, top1_recall=_rate(top1, n),
                      top3_recall=_rate(top3, n), current_preference=_rate(preferred, n))


def _rate(count: int, total: int) -> float:
    return round(count / total, 4) if total else 0.0


def _collisions(corpus: Corpus, clean_top1: dict[str, list[bool]]) -> tuple[Collision, ...]:
    by_question: dict[str, list[int]] = defaultdict(list)
    for i, task in enumerate(corpus.tasks):
        by_question[task.question].append(i)
    cues = DomainCues.of(corpus.cues)
    collisions = []
    for question, rows in by_question.items():
        if len({corpus.labels[i].domain for i in rows}) < 2:
            continue
        tasks = tuple(CollisionTask(
            task_id=corpus.tasks[i].task_id, row=corpus.tasks[i].row,
            domain=corpus.labels[i].domain, inferred_domain=cues.infer(question).domain,
            top1={name: hits[i] for name, hits in clean_top1.items()},
        ) for i in rows)
        collisions.append(Collision(question=question, tasks=tasks))
    return tuple(collisions)


def cue_collisions(corpus: Corpus) -> tuple[CueCollision, ...]:
    """Every cue shared across domains, with the tasks it touches and those it ties."""
    cues = DomainCues.of(corpus.cues)
    out = []
    for shared in shared_cues(corpus.cues):
        rows = tuple(t.row for t in corpus.tasks if matches(shared.cue, t.question))
        tied = tuple(r for r in rows if _tied(cues, corpus.tasks[r].question))
        out.append(CueCollision(**shared._asdict(), rows=rows, tied_rows=tied))
    return tuple(out)


def _tied(cues: DomainCues, question: str) -> tuple[str, ...]:
    hits = cues.infer(question).hits
    best = max(hits.values(), default=0)
    tied = tuple(d for d in cues.cues if hits.get(d) == best) if best else ()
    return tied if len(tied) > 1 else ()


def _ties(corpus: Corpus, clean_top1: dict[str, list[bool]]) -> tuple[CueTie, ...]:
    cues = DomainCues.of(corpus.cues)
    out = []
    for i, (task, labels) in enumerate(zip(corpus.tasks, corpus.labels, strict=True)):
        tied = _tied(cues, task.question)
        if tied:
            out.append(CueTie(task_id=task.task_id, row=task.row, domain=labels.domain,
                              question=task.question, tied=tied,
                              top1={name: hits[i] for name, hits in clean_top1.items()}))
    return tuple(out)
