"""The human-editable case spec, as validated models.

A case spec folder holds ``corpus.toml`` (name, tenant, access groups, the domains it declares,
any answer formats of its own: the same file enterprise_v2 has) and one ``<domain>.toml`` per
domain with its cue words and its ``[[cases]]``. A case is a support ticket as it is worked:
its subject and description, the identifiers it involves, the issue behind it, the workflow
that resolves it, the knowledge-base documents (with their versions) that say how, and three
to five user turns. Models are frozen and forbid unknown fields, so a typo is an error, never
a silently dropped value. Vocabularies (identifier kinds, turn kinds, answer types) are plain
text checked by :mod:`simulator.cases.checks`, so a wrong word gets a "Did you mean" rather
than a pydantic enum dump. docs/cases.md is the reference.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field

from simulator.corpus.spec import CorpusDecl

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")

IDENTIFIER_KINDS: tuple[str, ...] = (
    "error_code", "version", "asset_id", "ticket_id", "command", "file_path",
)
"""What a structured identifier can be (the paper's error codes, versions, commands, ids and
paths): an answer that alters one is a high-severity failure, whatever else it gets right."""

TURN_KINDS: tuple[str, ...] = ("answerable", "follow_up", "underspecified", "unanswerable")
"""MTRAG's turn kinds: a standalone question the documents answer; a follow-up that only
makes sense with the conversation before it; a question missing what an answer needs (the
safe reply asks); a question the documents do not answer (the safe reply says so)."""

ANSWER_TYPES: tuple[str, ...] = ("diagnose", "instruct", "clarify", "abstain")
"""The paper's answer-type fit: say what is wrong, say what to do, ask, or decline."""

ANSWER_TYPES_OF: dict[str, tuple[str, ...]] = {
    "answerable": ("diagnose", "instruct"),
    "follow_up": ("diagnose", "instruct"),
    "underspecified": ("clarify",),
    "unanswerable": ("abstain",),
}
"""The answer types a turn of each kind may expect."""

VALUED_KINDS = frozenset({"answerable", "follow_up"})
"""Turn kinds that carry an expected value, required documents and strict scoring."""

MIN_TURNS, MAX_TURNS = 3, 5


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class IdentifierSpec(_Frozen):
    """One structured identifier of a case, written exactly as it must be reproduced."""

    kind: str
    """One of :data:`IDENTIFIER_KINDS`."""
    value: str = Field(min_length=2)


class StepSpec(_Frozen):
    """One step of a resolution workflow."""

    id: str = Field(pattern=_ID.pattern)
    action: str = Field(min_length=8)
    """What is done, in words, with any command or path it uses."""
    requires: tuple[str, ...] = ()
    """Ids of earlier steps that must be done first (troubleshooting order)."""


class WorkflowSpec(_Frozen):
    """How the case is resolved: ordered steps, what must never be done, when to escalate."""

    steps: tuple[StepSpec, ...] = Field(min_length=2)
    prohibited: tuple[str, ...] = Field(min_length=1)
    """Actions a reply must not recommend (an unsafe production change, a destructive
    command, a step that skips the order)."""
    escalation: str = Field(min_length=10)
    """When and to whom the case goes if the steps do not resolve it."""


class DocumentSpec(_Frozen):
    """One version of a knowledge-base article. Versions of one article are linked by
    ``supersedes``; the generator derives status and ``superseded_by`` from the links."""

    key: str = Field(pattern=_ID.pattern)
    """The spec's own name for this version, unique in the corpus; turns cite it. Generated
    documents get opaque ids instead."""
    title: str = Field(min_length=3)
    version: str = Field(min_length=1)
    effective_year: int = Field(strict=True, ge=1990, le=2100)
    text: str = Field(min_length=40)
    supersedes: str | None = None
    """The key of the version this one replaced (same case), or None for the first."""


class TurnSpec(_Frozen):
    """One user turn and what a good reply to it is (everything but ``message`` and
    ``answer_format`` is evaluator-only)."""

    kind: str
    """One of :data:`TURN_KINDS`."""
    message: str = Field(min_length=3)
    """What the user writes: all an agent sees of this turn."""
    answer_type: str
    """One of :data:`ANSWER_TYPES`, allowed for the kind (:data:`ANSWER_TYPES_OF`)."""
    answer_format: str
    """The format of the value the turn asks for (built in, ``choice`` or declared in
    ``corpus.toml``); clarify and abstain turns name the format a value would have had."""
    options: tuple[str, ...] = ()
    """The options of a ``choice`` turn."""
    expected: str | None = None
    """The value a correct reply states (answerable and follow-up turns only), as it is
    written in a required document."""
    aliases: tuple[str, ...] = ()
    stale: str | None = None
    """The value a superseded version of a required document states instead: what an answer
    from a stale index looks like. Optional."""
    docs: tuple[str, ...] = ()
    """Keys of the current documents a correct reply rests on (answerable and follow-up)."""
    identifiers: tuple[str, ...] = ()
    """Values of the case's identifiers a correct reply reproduces exactly."""
    steps: tuple[str, ...] = ()
    """Ids of the workflow steps this turn's reply should recommend (in order)."""
    standalone: str | None = None
    """A follow-up rewritten to stand alone (MTRAG's rewrite): required for follow-ups, so a
    conversation-forming search can be checked against it."""
    missing: str | None = None
    """What an underspecified turn leaves out (an identifier kind or a short phrase): what
    the clarifying question should ask for."""


class CaseSpec(_Frozen):
    """One case: a ticket, its issue and resolution, its documents and its turns."""

    id: str = Field(pattern=_ID.pattern)
    subject: str = Field(min_length=8)
    description: str = Field(min_length=20)
    issue: str = Field(min_length=8)
    """The root cause, in words: evaluator-only (case-issue identification)."""
    access_group: str
    identifiers: tuple[IdentifierSpec, ...] = Field(min_length=1)
    workflow: WorkflowSpec
    documents: tuple[DocumentSpec, ...] = Field(min_length=2)
    turns: tuple[TurnSpec, ...]


class CaseDomainHeader(_Frozen):
    """A domain file's own fields, validated apart from its cases."""

    domain: str
    cues: tuple[str, ...] = Field(min_length=1)
    """Words a query about this domain might contain; the retriever's domain heuristic."""


class CaseDomainSpec(CaseDomainHeader):
    cases: tuple[CaseSpec, ...] = Field(min_length=1)


class CaseCorpusSpec(_Frozen):
    """A whole, validated case spec folder."""

    corpus: CorpusDecl
    domains: tuple[CaseDomainSpec, ...]
    spec_hash: str
    """SHA-256 over the spec files' names and bytes."""
    files: dict[str, str]
    """Domain id -> the file it came from."""


__all__ = [
    "ANSWER_TYPES", "ANSWER_TYPES_OF", "IDENTIFIER_KINDS", "MAX_TURNS", "MIN_TURNS",
    "TURN_KINDS", "VALUED_KINDS", "CaseCorpusSpec", "CaseDomainHeader", "CaseDomainSpec",
    "CaseSpec", "DocumentSpec", "IdentifierSpec", "StepSpec", "TurnSpec", "WorkflowSpec",
]
