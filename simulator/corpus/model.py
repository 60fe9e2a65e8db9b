"""The generated corpus: documents and tasks the agent may see, labels only the scorer sees."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from simulator.corpus.spec import AnswerFormat

Status = Literal["current", "superseded"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Document(_Frozen):
    """A policy document: prose plus operational metadata, and its place in its lineage.

    There is deliberately no field that states the governed value: it lives in the prose only.
    The lineage fields are what a document-management system publishes with each version
    (which policy it is a version of, which version it replaced and which replaced it), so the
    live registry, and the faults that aim with it, read version history from the documents
    themselves and never from the evaluator's labels.
    """

    doc_id: str
    """Opaque: reveals neither domain, unit nor status."""
    title: str
    text: str
    domain: str
    status: Status
    effective_year: int
    version: str
    access_group: str
    tenant: str
    policy_id: str | None = None
    """Opaque id shared by every version of one policy (None: a lineage of its own). Like
    ``doc_id`` it reveals neither domain, unit, status nor answer."""
    supersedes: str | None = None
    """The doc id of the version this one replaced, as published (None: the first)."""
    superseded_by: str | None = None
    """The doc id of the version that replaced this one, as published (None: the newest)."""


class SessionContext(_Frozen):
    """Who is asking: the caller's session, tenant and access groups."""

    session_id: str
    tenant: str
    user_id: str
    access_groups: tuple[str, ...]


class Task(_Frozen):
    """What the agent receives: a question, the answer format it expects, and its session."""

    task_id: str
    row: int = Field(ge=0)
    """Position in corpus order, 0..N-1."""
    question: str
    answer_format: AnswerFormat
    """A built-in format's name, or a descriptor with a choice's options or a declared
    format's pattern: public, like the options of a multiple-choice question."""
    session: SessionContext


class Labels(_Frozen):
    """Evaluator-only truth for one task. Never passed below the endpoint."""

    task_id: str
    row: int
    unit: int
    """Unit index in corpus order (the cluster for statistics)."""
    unit_id: str
    variant: int = Field(ge=0)
    domain: str
    answer_format: AnswerFormat
    """The task's format, by which the scorer normalises answers (as extraction does)."""
    expected_answer: str
    accepted_answers: tuple[str, ...]
    """``expected_answer`` and its aliases: the current version's value."""
    superseded_answers: tuple[str, ...]
    """The superseded version's value and aliases: what a stale answer looks like."""
    required_doc_ids: tuple[str, ...]
    superseded_doc_ids: tuple[str, ...]
    access_group: str


class Corpus(_Frozen):
    """Everything generated from one spec and seed."""

    name: str
    seed: int
    spec_hash: str
    generator_version: str
    domains: tuple[str, ...]
    cues: dict[str, tuple[str, ...]]
    """Domain id -> cue words, for query-side domain inference."""
    access_groups: tuple[str, ...]
    tenant: str
    documents: tuple[Document, ...]
    tasks: tuple[Task, ...]
    labels: tuple[Labels, ...]

    _by_id: dict[str, Document] = PrivateAttr(default_factory=dict)

    def published(self) -> Corpus:
        """This corpus without its labels: what the environment behind the tools may hold.

        The endpoints, and everything a tool closes over, keep this copy, so nothing the agent
        under test can reach leads to an expected answer or a required document id.
        """
        return self.model_copy(update={"labels": ()})

    def document(self, doc_id: str) -> Document:
        if not self._by_id:
            self._by_id.update((d.doc_id, d) for d in self.documents)
        return self._by_id[doc_id]

    @property
    def corpus_hash(self) -> str:
        """Identity of the generated corpus: spec hash, seed and generator version."""
        import hashlib

        key = f"{self.spec_hash}:{self.seed}:{self.generator_version}"
        return hashlib.sha256(key.encode()).hexdigest()[:16]
