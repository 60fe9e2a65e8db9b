"""The generated case corpus: cases and turns an agent may see, labels only the scorer sees.

The split follows enterprise_v2's Task / Labels: a :class:`Case` holds the ticket as filed
(subject, description), its session and its turns; a :class:`Turn` holds the user's message
and the answer format it asks for, nothing else. Everything that says what a good reply is
(the issue, the identifiers, the workflow, expected values, required documents, answer
types) is in :class:`CaseLabels`, which :meth:`CaseCorpus.published` drops. Documents are
enterprise_v2's :class:`~simulator.corpus.model.Document`, lineage fields included, so the
search endpoint, the registry and every fault read them unchanged (:meth:`CaseCorpus.as_corpus`).
"""

from __future__ import annotations

import hashlib

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from simulator.corpus.model import Corpus, Document, Labels, SessionContext, Task


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Turn(_Frozen):
    """One user turn as the agent receives it."""

    turn_id: str
    """Opaque: reveals neither case, kind nor answer."""
    position: int = Field(ge=0)
    """0-based position in its case."""
    message: str
    answer_format: str
    """The format a value in reply would have (public, like a task's format)."""


class Case(_Frozen):
    """One case as filed: what an agent's environment may hold."""

    case_id: str
    """Opaque."""
    row: int = Field(ge=0)
    """Position in corpus order, 0..N-1."""
    subject: str
    description: str
    """The ticket as the user filed it. Whether an agent sees it is the runner's choice;
    it states no value a turn asks for."""
    session: SessionContext
    """One session for the whole conversation: every turn is asked in it."""
    turns: tuple[Turn, ...]


class Identifier(_Frozen):
    kind: str
    value: str


class WorkflowStep(_Frozen):
    step_id: str
    action: str
    requires: tuple[str, ...] = ()
    """Step ids that must come first."""


class Workflow(_Frozen):
    """Ordered steps with prerequisites, prohibited actions and the escalation rule."""

    steps: tuple[WorkflowStep, ...]
    prohibited: tuple[str, ...]
    escalation: str


class TurnLabels(_Frozen):
    """Evaluator-only truth for one turn."""

    turn_id: str
    position: int
    kind: str
    """answerable, follow_up, underspecified or unanswerable."""
    answer_type: str
    """diagnose, instruct, clarify or abstain: what a safe reply does."""
    answer_format: str
    expected_answer: str | None
    """None for clarify and abstain turns: there the safe reply states no value."""
    accepted_answers: tuple[str, ...]
    superseded_answers: tuple[str, ...]
    required_doc_ids: tuple[str, ...]
    superseded_doc_ids: tuple[str, ...]
    """Every older version in the lineages of the required documents."""
    expected_identifiers: tuple[str, ...]
    expected_steps: tuple[str, ...]
    """Workflow step ids the reply should recommend, in order."""
    standalone_question: str
    """The turn rewritten to stand alone (the message itself unless it is a follow-up)."""
    missing: str | None
    """What an underspecified turn leaves out."""


class CaseLabels(_Frozen):
    """Evaluator-only truth for one case. Never passed below the endpoint."""

    case_id: str
    row: int
    case_key: str
    """The spec's id for the case (``ITC-01``)."""
    domain: str
    access_group: str
    issue: str
    identifiers: tuple[Identifier, ...]
    workflow: Workflow
    doc_ids: tuple[str, ...]
    """Every document written for this case, all versions."""
    turns: tuple[TurnLabels, ...]


class CaseCorpus(_Frozen):
    """Everything generated from one case spec and seed."""

    name: str
    seed: int
    spec_hash: str
    generator_version: str
    domains: tuple[str, ...]
    cues: dict[str, tuple[str, ...]]
    access_groups: tuple[str, ...]
    tenant: str
    documents: tuple[Document, ...]
    cases: tuple[Case, ...]
    labels: tuple[CaseLabels, ...]

    _by_id: dict[str, Document] = PrivateAttr(default_factory=dict)

    def published(self) -> CaseCorpus:
        """This corpus without its labels: what an agent's environment may hold."""
        return self.model_copy(update={"labels": ()})

    def document(self, doc_id: str) -> Document:
        if not self._by_id:
            self._by_id.update((d.doc_id, d) for d in self.documents)
        return self._by_id[doc_id]

    @property
    def corpus_hash(self) -> str:
        """Identity of the generated corpus: spec hash, seed and generator version."""
        key = f"{self.spec_hash}:{self.seed}:{self.generator_version}"
        return hashlib.sha256(key.encode()).hexdigest()[:16]

    def as_corpus(self) -> Corpus:
        """The published documents and one task per turn, as enterprise_v2's :class:`Corpus`
        without labels: what :class:`~simulator.endpoints.environment.PolicyEnvironment`
        and the retrievers index. A task's question is the turn's message as written (a
        follow-up stays non-standalone) and its session is the case's."""
        tasks = [Task(task_id=turn.turn_id, row=row, question=turn.message,
                      answer_format=turn.answer_format, session=case.session)
                 for row, (case, turn) in enumerate(
                     (c, t) for c in self.cases for t in c.turns)]
        return Corpus(name=self.name, seed=self.seed, spec_hash=self.spec_hash,
                      generator_version=self.generator_version, domains=self.domains,
                      cues=self.cues, access_groups=self.access_groups, tenant=self.tenant,
                      documents=self.documents, tasks=tuple(tasks), labels=())

    def strict_labels(self) -> tuple[Labels, ...]:
        """enterprise_v2 :class:`Labels` for every turn with an expected value, so strict
        success (E∧R∧G∧V) scores those turns unchanged: the case is the unit (the cluster),
        the turn position the variant, the task id the turn id."""
        out: list[Labels] = []
        rows = {t.turn_id: row for row, t in enumerate(t for c in self.cases for t in c.turns)}
        for unit, case in enumerate(self.labels):
            for turn in case.turns:
                if turn.expected_answer is None:
                    continue
                out.append(Labels(
                    task_id=turn.turn_id, row=rows[turn.turn_id], unit=unit,
                    unit_id=case.case_key, variant=turn.position, domain=case.domain,
                    answer_format=turn.answer_format, expected_answer=turn.expected_answer,
                    accepted_answers=turn.accepted_answers,
                    superseded_answers=turn.superseded_answers,
                    required_doc_ids=turn.required_doc_ids,
                    superseded_doc_ids=turn.superseded_doc_ids,
                    access_group=case.access_group))
        return tuple(out)

    def turn_count(self) -> int:
        return sum(len(c.turns) for c in self.cases)


__all__ = ["Case", "CaseCorpus", "CaseLabels", "Identifier", "Turn", "TurnLabels",
           "Workflow", "WorkflowStep"]
