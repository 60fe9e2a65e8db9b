"""The human-editable corpus spec, as validated models.

A spec folder holds ``corpus.toml`` (the corpus name, tenant, access groups, the domains it
declares and any answer formats of its own) and one ``<domain>.toml`` per domain with that
domain's cue words and policy units. The models are frozen and forbid unknown fields so that
a typo in a spec is an error, never a silently dropped value. docs/corpus.md is the reference.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, NamedTuple

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from simulator.answers.formats import (
    BUILTIN_FORMATS,
    CHOICE,
    FormatSpec,
    NormaliseStep,
    parse_format,
)


def _descriptor(value: str) -> str:
    parse_format(value)  # ValueError names what is wrong
    return value


AnswerFormat = Annotated[str, AfterValidator(_descriptor)]
"""What kind of value a task asks for, as the task states it: a built-in format's name or a
descriptor (``choice (one of: a | b)``, ``desk_code (pattern: ...)``); see
:mod:`simulator.answers.formats`. The task tells the reader the format, never the value."""

ANSWER_FORMATS: tuple[str, ...] = (*BUILTIN_FORMATS, CHOICE)
"""The format names a unit may use without declaring them."""

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class VersionSpec(_Frozen):
    """One version (current or superseded) of a policy unit."""

    version: str = Field(min_length=1)
    """Version label as the policy owner writes it, e.g. ``v3.2``."""
    effective_year: int = Field(strict=True, ge=1990, le=2100)
    """A whole year written as a TOML integer (``2025``, not ``"2025"`` or ``2025.0``)."""
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
    """Shared by both versions; the reader groups versions by title, so titles are unique."""
    attribute: str = Field(min_length=3)
    """The attribute the policy governs, in words (``return window for opened items``)."""
    answer_format: str
    """A built-in format, ``choice``, or a format declared in ``corpus.toml``."""
    options: tuple[str, ...] = ()
    """The options of a ``choice`` unit (at least two); both values must be among them."""
    access_group: str
    questions: tuple[str, ...]
    """Exactly three question variants; correlated coverage of one unit, not samples."""
    current: VersionSpec
    superseded: VersionSpec
    shared_questions: tuple[str, ...] = ()
    """Questions of this unit that a unit of another domain asks too, on purpose: a
    cross-domain collision no label-free retriever can answer both ways (the design asks
    for at least one). Declared here, ``corpus validate`` does not warn about it; the
    retriever audit still follows it."""


class DomainHeader(_Frozen):
    """A domain file's own fields, validated apart from its units."""

    domain: str
    cues: tuple[str, ...] = Field(min_length=1)
    """Words a query about this domain might contain; the retriever's domain heuristic."""


class DomainSpec(DomainHeader):
    """A domain file: its cue words and its units."""

    units: tuple[UnitSpec, ...] = Field(min_length=1)


class DomainFile(NamedTuple):
    """What one domain file yielded, valid or not: its header and the units that validated.

    Checks that look across files (duplicate ids, titles, questions; cues) read these, so
    they run even when some file or unit has errors.
    """

    path: Path
    header: DomainHeader | None
    units: tuple[UnitSpec, ...]
    complete: bool
    """Whether the file had no error of its own (every unit validated and checked)."""


class DomainDecl(_Frozen):
    id: str = Field(pattern=_ID.pattern)
    name: str


class FormatDecl(_Frozen):
    """An answer format a corpus declares itself (``[[formats]]`` in ``corpus.toml``)."""

    name: str
    """lower_snake_case, not a built-in format's name."""
    pattern: str = Field(min_length=1)
    """A Python regular expression a value matches in full, and that finds values in prose."""
    normalise: tuple[NormaliseStep, ...] = ()
    """Extra scoring normalisation: ``ignore_spaces``, ``ignore_punctuation``."""
    description: str = ""
    """For people; readers see the name and the pattern."""


class CorpusDecl(_Frozen):
    """``corpus.toml``: what the corpus is and which domains it declares."""

    name: str
    description: str = ""
    tenant: str
    access_groups: tuple[str, ...] = Field(min_length=1)
    domains: tuple[DomainDecl, ...] = Field(min_length=1)
    formats: tuple[FormatDecl, ...] = ()


class CorpusSpec(_Frozen):
    """A whole, validated spec folder."""

    corpus: CorpusDecl
    domains: tuple[DomainSpec, ...]
    spec_hash: str
    """SHA-256 over the spec files' names and bytes: the corpus's identity in manifests."""
    files: dict[str, str]
    """Domain id -> the file it came from, for error messages."""

    def format_of(self, unit: UnitSpec) -> str:
        """The descriptor the unit's tasks state (see :mod:`simulator.answers.formats`)."""
        return describe_format(unit, self.corpus.formats)


def describe_format(unit: UnitSpec, declared: tuple[FormatDecl, ...]) -> str:
    """The descriptor of ``unit``'s format: a name, its options or its declared pattern."""
    if unit.answer_format == CHOICE:
        return FormatSpec(name=CHOICE, options=unit.options).describe()
    for decl in declared:
        if decl.name == unit.answer_format:
            return FormatSpec(name=decl.name, pattern=decl.pattern,
                              normalise=decl.normalise).describe()
    return unit.answer_format
