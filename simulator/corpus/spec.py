"""The human-editable corpus spec, as validated models.

A spec folder holds ``corpus.toml`` (the corpus name, tenant, access groups and the domains
it declares) and one ``<domain>.toml`` per domain with that domain's cue words and policy
units. The models are frozen and forbid unknown fields so that a typo in a spec is an error,
never a silently dropped value.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

AnswerFormat = Literal["duration", "amount", "count", "percentage", "role", "system", "yes_no"]
"""What kind of value a unit governs. The task tells the reader the format, never the value."""

ANSWER_FORMATS: tuple[str, ...] = AnswerFormat.__args__  # type: ignore[attr-defined]

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class VersionSpec(_Frozen):
    """One version (current or superseded) of a policy unit."""

    version: str = Field(min_length=1)
    """Version label as the policy owner writes it, e.g. ``v3.2``."""
    effective_year: int = Field(ge=1990, le=2100)
    value: str = Field(min_length=1)
    """The governed value exactly as it appears in ``prose``."""
    aliases: tuple[str, ...] = ()
    """Other accepted spellings of ``value`` for exact-match scoring."""
    prose: str = Field(min_length=20)
    """Policy text in which ``value`` appears in a natural sentence."""


class UnitSpec(_Frozen):
    """One policy unit: a governed attribute with a current and a superseded version."""

    id: str = Field(pattern=_ID.pattern)
    title: str = Field(min_length=3)
    attribute: str = Field(min_length=3)
    """The attribute the policy governs, in words (``return window for opened items``)."""
    answer_format: AnswerFormat
    access_group: str
    questions: tuple[str, ...]
    """Exactly three question variants; correlated coverage of one unit, not samples."""
    current: VersionSpec
    superseded: VersionSpec


class DomainSpec(_Frozen):
    """A domain file: its cue words and its units."""

    domain: str
    cues: tuple[str, ...] = Field(min_length=1)
    """Words a query about this domain might contain; the retriever's domain heuristic."""
    units: tuple[UnitSpec, ...] = Field(min_length=1)


class DomainDecl(_Frozen):
    id: str = Field(pattern=_ID.pattern)
    name: str


class CorpusDecl(_Frozen):
    """``corpus.toml``: what the corpus is and which domains it declares."""

    name: str
    description: str = ""
    tenant: str
    access_groups: tuple[str, ...] = Field(min_length=1)
    domains: tuple[DomainDecl, ...] = Field(min_length=1)


class CorpusSpec(_Frozen):
    """A whole, validated spec folder."""

    corpus: CorpusDecl
    domains: tuple[DomainSpec, ...]
    spec_hash: str
    """SHA-256 over the spec files' names and bytes: the corpus's identity in manifests."""
    files: dict[str, str]
    """Domain id -> the file it came from, for error messages."""
