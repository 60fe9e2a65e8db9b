"""The checks a case spec must pass beyond field types: per case, and across files.

Like :mod:`simulator.corpus.checks`, each check returns problems rather than raising, so one
run reports them all, each naming file, case and field. What is checked here is what would
make a case other than written: a word outside a vocabulary, a turn citing a document that
does not exist or is not current, a value its documents do not state, a lineage that loops,
a workflow step required before it exists, an identifier not of its kind's shape.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

from simulator.answers.formats import (
    BUILTIN_FORMATS,
    CHOICE,
    YES_NO,
    FormatSpec,
    value_matches_format,
)
from simulator.answers.normalize import normalize_answer
from simulator.cases.spec import (
    ANSWER_TYPES,
    ANSWER_TYPES_OF,
    IDENTIFIER_KINDS,
    MAX_TURNS,
    MIN_TURNS,
    TURN_KINDS,
    VALUED_KINDS,
    CaseDomainHeader,
    CaseSpec,
    DocumentSpec,
    TurnSpec,
)
from simulator.corpus.checks import article
from simulator.corpus.problems import Problem, did_you_mean
from simulator.corpus.spec import CorpusDecl

_Fail = Callable[[str, str], None]
"""Records one problem of the case being checked: (field, why)."""

KIND_FORMATS: dict[str, str] = {"version": "version_number"}
"""The declared format an identifier kind is held to, where its name is not the kind's own:
every other kind is held to the ``corpus.toml`` format of its own name (``error_code``,
``command``, ``file_path``, and ``asset_id`` or ``ticket_id`` if a spec declares them). The
readers find values in prose with these patterns, so an identifier that does not match is
one a reader extracting with them cannot find whole."""

TOKEN_KINDS = frozenset({"asset_id", "ticket_id"})
"""Kinds held to :data:`TOKEN` when the spec declares no format for them. Ids are named in
many styles (``web-portal-07``, ``FORM-PL2``, ``INC0012345``), so no pattern fits them all;
but an id is one token, and a space or a trailing full stop is a copying mistake."""

TOKEN = re.compile(r"[A-Za-z0-9](?:[\w.:/#-]*[A-Za-z0-9])?")


class CaseFile(NamedTuple):
    """What one domain file yielded, valid or not (for the checks across files)."""

    path: Path
    header: CaseDomainHeader | None
    cases: tuple[CaseSpec, ...]


def turn_format(turn: TurnSpec, declared: Sequence[FormatSpec]) -> FormatSpec | None:
    """The format a turn names, or None when it names none that exists."""
    if turn.answer_format == CHOICE:
        return FormatSpec(name=CHOICE, options=turn.options) if len(turn.options) >= 2 else None
    if turn.answer_format in BUILTIN_FORMATS:
        return FormatSpec(name=turn.answer_format)
    return next((f for f in declared if f.name == turn.answer_format), None)


def declared_formats(corpus: CorpusDecl | None) -> tuple[FormatSpec, ...]:
    if corpus is None:
        return ()
    return tuple(FormatSpec(name=d.name, pattern=d.pattern, normalise=d.normalise)
                 for d in corpus.formats)


def statuses(documents: Sequence[DocumentSpec]) -> dict[str, str]:
    """Document key -> ``current`` or ``superseded``: a version another one supersedes is
    superseded, every other version is current."""
    replaced = {d.supersedes for d in documents if d.supersedes is not None}
    return {d.key: "superseded" if d.key in replaced else "current" for d in documents}


def older_versions(key: str, documents: Sequence[DocumentSpec]) -> list[DocumentSpec]:
    """The versions ``key`` replaced, newest first (stops at a cycle or an unknown key)."""
    by_key = {d.key: d for d in documents}
    out: list[DocumentSpec] = []
    seen = {key}
    nxt = by_key[key].supersedes if key in by_key else None
    while nxt is not None and nxt in by_key and nxt not in seen:
        out.append(by_key[nxt])
        seen.add(nxt)
        nxt = by_key[nxt].supersedes
    return out


def case_problems(case: CaseSpec, corpus: CorpusDecl | None, file: str) -> list[Problem]:
    """Everything wrong with one case that its field types do not already say."""
    problems: list[Problem] = []

    def fail(field: str, why: str) -> None:
        problems.append(Problem(file=file, field=field, message=why, unit=case.id))

    if corpus is not None and case.access_group not in corpus.access_groups:
        fail("access_group", f"{case.access_group!r} is not declared in corpus.toml."
                             f"{did_you_mean(case.access_group, corpus.access_groups)}")
    values: dict[str, int] = {}
    for i, ident in enumerate(case.identifiers):
        if ident.kind not in IDENTIFIER_KINDS:
            hint = did_you_mean(ident.kind, IDENTIFIER_KINDS)
            fail(f"identifiers[{i}].kind", f"unknown identifier kind {ident.kind!r}.{hint}"
                                           f" Known: {', '.join(IDENTIFIER_KINDS)}")
        if ident.value in values:
            fail(f"identifiers[{i}].value",
                 f"{ident.value!r} is already identifiers[{values[ident.value]}]")
        values.setdefault(ident.value, i)
    formats = declared_formats(corpus)
    for i, ident in enumerate(case.identifiers):
        _identifier_problems(ident.kind, ident.value, f"identifiers[{i}].value", formats,
                             fail)
    _workflow_problems(case, fail)
    _lineage_problems(case, fail)
    if not MIN_TURNS <= len(case.turns) <= MAX_TURNS:
        fail("turns", f"a case has {MIN_TURNS} to {MAX_TURNS} turns, got {len(case.turns)}")
    if not any(t.kind in VALUED_KINDS for t in case.turns):
        fail("turns", "no answerable or follow_up turn: a case needs at least one turn its "
                      "documents answer")
    for i, turn in enumerate(case.turns):
        _turn_problems(case, turn, i, formats, corpus is not None, fail)
    return problems


def identifier_format(kind: str, formats: Sequence[FormatSpec]) -> FormatSpec | None:
    """The declared format identifiers of ``kind`` must match, or None when there is none."""
    name = KIND_FORMATS.get(kind, kind)
    return next((f for f in formats if f.name == name), None)


def _identifier_problems(kind: str, value: str, field: str, formats: Sequence[FormatSpec],
                         fail: _Fail) -> None:
    if kind not in IDENTIFIER_KINDS:
        return  # reported on its kind
    fmt = identifier_format(kind, formats)
    if fmt is None:
        if kind in TOKEN_KINDS and not TOKEN.fullmatch(value):
            fail(field, f"{value!r} is not one token: {article(kind)} {kind} is letters and "
                        "digits joined by - _ . : / #, no space, starting and ending with a "
                        f"letter or digit (declare a {kind} format in corpus.toml for a "
                        "stricter shape)")
        return
    if value_matches_format(value, fmt):
        return
    fits = [k for k in IDENTIFIER_KINDS if k != kind and _fits(value, k, formats)]
    hint = f" (it fits {' and '.join(fits)}: is its kind wrong?)" if fits else ""
    of_kind = f" (the format of {kind} identifiers)" if fmt.name != kind else ""
    fail(field, f"{value!r} is not {article(fmt.name)} {fmt.name} value{of_kind}: a full match "
                f"of the pattern {fmt.pattern!r} declared in corpus.toml{hint}")


def _fits(value: str, kind: str, formats: Sequence[FormatSpec]) -> bool:
    fmt = identifier_format(kind, formats)
    return fmt is not None and value_matches_format(value, fmt)


def _workflow_problems(case: CaseSpec, fail: _Fail) -> None:
    earlier: set[str] = set()
    for i, step in enumerate(case.workflow.steps):
        if step.id in earlier:
            fail(f"workflow.steps[{i}].id", f"step id {step.id!r} is used twice")
        for j, need in enumerate(step.requires):
            if need not in earlier:
                known = [s.id for s in case.workflow.steps]
                why = ("is this step itself" if need == step.id else
                       "comes later: a prerequisite is an earlier step" if need in known else
                       f"is not a step of this workflow.{did_you_mean(need, known)}")
                fail(f"workflow.steps[{i}].requires[{j}]", f"{need!r} {why}")
        earlier.add(step.id)


def _lineage_problems(case: CaseSpec, fail: _Fail) -> None:
    docs = case.documents
    by_key = {d.key: d for d in docs}
    successor: dict[str, int] = {}
    for i, doc in enumerate(docs):
        if doc.supersedes is None:
            continue
        where = f"documents[{i}].supersedes"
        if doc.supersedes not in by_key:
            hint = did_you_mean(doc.supersedes, by_key)
            fail(where, f"unknown document {doc.supersedes!r}.{hint}"
                        " A version supersedes another document of the same case")
            continue
        if doc.supersedes in successor:
            fail(where, f"{doc.supersedes!r} is already superseded by "
                        f"documents[{successor[doc.supersedes]}]: a version has one successor")
        successor.setdefault(doc.supersedes, i)
        older = by_key[doc.supersedes]
        if older.effective_year > doc.effective_year:
            fail(f"documents[{i}].effective_year",
                 f"{doc.effective_year} is before {older.key!r} ({older.effective_year}), "
                 "the version it supersedes")
        if older.version == doc.version:
            fail(f"documents[{i}].version", f"equals the version of {older.key!r} it supersedes")
    for i, doc in enumerate(docs):
        chain, key = [doc.key], doc.supersedes
        while key is not None and key in by_key:
            chain.append(key)
            if key == doc.key:
                if doc.key == min(chain):  # report a cycle once, on its first key
                    fail(f"documents[{i}].supersedes",
                         f"lineage cycle: {' -> '.join(chain)}; a version cannot supersede "
                         "itself or a newer one")
                break
            if key in chain[:-1]:
                break  # a cycle this document leads into, reported on its own members
            key = by_key[key].supersedes
    if docs and not successor:
        fail("documents", "no version supersedes another: a case's knowledge base needs a "
                          "current and a superseded version of at least one article")


def _turn_problems(case: CaseSpec, turn: TurnSpec, i: int, formats: Sequence[FormatSpec],
                   checked_formats: bool, fail: _Fail) -> None:
    at = f"turns[{i}]"
    if turn.kind not in TURN_KINDS:
        fail(f"{at}.kind", f"unknown turn kind {turn.kind!r}.{did_you_mean(turn.kind, TURN_KINDS)}"
                           f" Known: {', '.join(TURN_KINDS)}")
        return
    if turn.answer_type not in ANSWER_TYPES:
        fail(f"{at}.answer_type", f"unknown answer type {turn.answer_type!r}."
                                  f"{did_you_mean(turn.answer_type, ANSWER_TYPES)}"
                                  f" Known: {', '.join(ANSWER_TYPES)}")
    elif turn.answer_type not in ANSWER_TYPES_OF[turn.kind]:
        fail(f"{at}.answer_type", f"{turn.answer_type!r} does not fit a {turn.kind} turn; "
                                  f"use {' or '.join(ANSWER_TYPES_OF[turn.kind])}")
    if turn.kind == "follow_up" and i == 0:
        fail(f"{at}.kind", "the first turn cannot be a follow_up: it follows nothing")
    if turn.kind == "follow_up" and not turn.standalone:
        fail(f"{at}.standalone", "a follow_up states its standalone rewrite")
    if turn.kind == "underspecified" and not turn.missing:
        fail(f"{at}.missing", "an underspecified turn says what it leaves out")
    idents = {ident.value for ident in case.identifiers}
    for j, value in enumerate(turn.identifiers):
        if value not in idents:
            fail(f"{at}.identifiers[{j}]", f"{value!r} is not an identifier of this case."
                                           f"{did_you_mean(value, idents)}")
    steps = [s.id for s in case.workflow.steps]
    for j, step in enumerate(turn.steps):
        if step not in steps:
            fail(f"{at}.steps[{j}]", f"{step!r} is not a workflow step.{did_you_mean(step, steps)}")
    fmt = turn_format(turn, formats)
    if fmt is None and checked_formats:
        known = (*BUILTIN_FORMATS, CHOICE, *(f.name for f in formats))
        why = ("a choice turn lists at least two options" if turn.answer_format == CHOICE
               else f"unknown format {turn.answer_format!r}."
                    f"{did_you_mean(turn.answer_format, known)} Known: {', '.join(known)}")
        fail(f"{at}.answer_format", why)
    if turn.kind in VALUED_KINDS:
        _valued_turn_problems(case, turn, at, fmt, fail)
        return
    for name in ("expected", "stale", "aliases", "docs"):
        if getattr(turn, name):
            fail(f"{at}.{name}", f"a {turn.kind} turn has no {name}: its safe reply "
                                 f"{'asks' if turn.kind == 'underspecified' else 'declines'}")


def _valued_turn_problems(case: CaseSpec, turn: TurnSpec, at: str, fmt: FormatSpec | None,
                          fail: _Fail) -> None:
    if turn.expected is None:
        fail(f"{at}.expected", f"missing: a {turn.kind} turn states the value a reply gives")
    if not turn.docs:
        fail(f"{at}.docs", f"missing: a {turn.kind} turn names the documents it rests on")
    by_key = {d.key: d for d in case.documents}
    status = statuses(case.documents)
    required = []
    for j, key in enumerate(turn.docs):
        if key not in by_key:
            fail(f"{at}.docs[{j}]", f"unknown document {key!r}.{did_you_mean(key, by_key)}"
                                    f" This case's documents: {', '.join(by_key)}")
        elif status[key] != "current":
            fail(f"{at}.docs[{j}]", f"{key!r} is superseded: a turn rests on current versions "
                                    "(name the stale value with stale = ...)")
        else:
            required.append(by_key[key])
    if turn.expected is None or not required:
        return
    if fmt is not None and not value_matches_format(turn.expected, fmt):
        fail(f"{at}.expected", f"{turn.expected!r} is not a {fmt.name} value")
    yes_no = fmt is not None and fmt.name == "yes_no"
    if yes_no:
        _polarity_problems(turn.expected, turn.aliases, at, fail)
    if not any(_mentions(d.text, turn.expected) for d in required):
        fail(f"{at}.expected", f"no required document states {turn.expected!r}")
    if turn.stale is not None:
        older = [o for d in required for o in older_versions(d.key, case.documents)]
        if yes_no:
            _stale_polarity_problems(turn, bool(older), at, fail)
        elif not any(_mentions(o.text, turn.stale) for o in older):
            fail(f"{at}.stale", f"no superseded version of a required document states "
                                f"{turn.stale!r}")
        descriptor = fmt.describe() if fmt is not None else None
        if not yes_no and normalize_answer(turn.stale, descriptor) == normalize_answer(
                turn.expected, descriptor):
            fail(f"{at}.stale", f"equals the expected value {turn.expected!r}")


def _polarity_problems(expected: str, aliases: Sequence[str], at: str, fail: _Fail) -> None:
    """A yes_no value is what a document says (``not permitted``) with its polarity beside
    it, as in enterprise_v2: the expected value or one alias is yes or no, and only one of
    them, since the scorer accepts every one and reads a reply's yes or no."""
    polar = {v.strip().lower() for v in (expected, *aliases)} & set(YES_NO)
    if not polar:
        fail(f"{at}.expected", f"{expected!r} is not a yes_no value: the expected value or "
                               "one of its aliases is yes or no")
    elif len(polar) > 1:
        fail(f"{at}.aliases", f"{expected!r} and its aliases say both yes and no: a yes_no "
                              "value has one polarity")


def _stale_polarity_problems(turn: TurnSpec, has_older: bool, at: str, fail: _Fail) -> None:
    """A yes_no turn's stale value is the polarity its superseded version gives, yes or no,
    and the other one than the expected value's.

    A reply to a yes_no turn is read as yes or no, and the scorer and the judge compare it
    with the stale value to tell a reply misled by a superseded version (``freshness``,
    ``metadata``, ``evidence``) from a plain misreading. The stale value has no aliases to
    carry its polarity beside the document's words, as ``expected`` does, so it is the
    polarity itself: the superseded words would never match a reply, and the polarity of
    the expected value would score a stale reply as current. Whether the superseded text
    says it cannot be checked word for word, as a yes or no is rarely written; that a
    superseded version exists can."""
    stale = turn.stale or ""
    said = stale.strip().lower()
    if said not in YES_NO:
        fail(f"{at}.stale", f"{stale!r} is not a yes_no stale value: write the polarity the "
                            "superseded version gives, yes or no (a reply is read as yes or "
                            "no; the superseded words would never match one)")
        return
    polar = {v.strip().lower() for v in (turn.expected or "", *turn.aliases)} & set(YES_NO)
    if polar == {said}:
        other = next(p for p in YES_NO if p != said)
        fail(f"{at}.stale", f"{stale!r} is the polarity of the expected value "
                            f"{turn.expected!r}: a superseded version that said the same "
                            f"would not be stale; the stale value is {other!r}")
    if not has_older:
        fail(f"{at}.stale", f"{stale!r}: no required document has a superseded version to "
                            "say it")


def _mentions(text: str, value: str) -> bool:
    pattern = r"(?<![\w$€£.])" + re.escape(value) + r"(?![\w]|\.\d)"
    return re.search(pattern, text, flags=re.IGNORECASE) is not None


def spec_problems(files: Sequence[CaseFile], corpus: CorpusDecl | None,
                  corpus_file: str) -> list[Problem]:
    """Problems across files: domains defined twice or not at all, ids and keys reused."""
    problems: list[Problem] = []
    domain_file: dict[str, str] = {}
    for f in files:
        if f.header is None:
            continue
        if f.header.domain in domain_file:
            problems.append(Problem(file=str(f.path), field="domain", message=(
                f"domain {f.header.domain!r} is already defined in "
                f"{domain_file[f.header.domain]}")))
        domain_file.setdefault(f.header.domain, str(f.path))
    if corpus is not None:
        declared = {d.id for d in corpus.domains}
        missing = [d.id for d in corpus.domains if d.id not in domain_file]
        if missing and all(f.header is not None and f.header.domain in declared for f in files):
            problems.append(Problem(file=corpus_file, field="domains",
                                    message=f"no file defines {', '.join(missing)}"))
    ids: dict[str, str] = {}
    keys: dict[str, str] = {}
    for f in files:
        for case in f.cases:
            if case.id in ids:
                problems.append(Problem(file=str(f.path), field="id", unit=case.id,
                                        message=f"duplicate case id, first used in {ids[case.id]}"))
            ids.setdefault(case.id, str(f.path))
            for i, doc in enumerate(case.documents):
                if doc.key in keys:
                    problems.append(Problem(
                        file=str(f.path), field=f"documents[{i}].key", unit=case.id,
                        message=f"document key {doc.key!r} is already used by case "
                                f"{keys[doc.key]}"))
                keys.setdefault(doc.key, case.id)
    return problems


__all__ = ["KIND_FORMATS", "TOKEN", "TOKEN_KINDS", "CaseFile", "case_problems",
           "declared_formats", "identifier_format", "older_versions", "spec_problems",
           "statuses", "turn_format"]
