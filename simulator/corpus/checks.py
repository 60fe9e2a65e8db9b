"""The checks a spec must pass beyond field types: per unit, per corpus, across files.

Each check returns problems rather than raising, so one run reports them all. Messages say
what to change, not only what is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

from simulator.answers.formats import (
    BUILTIN_FORMATS,
    CHOICE,
    YES_NO,
    FormatSpec,
    value_matches_format,
)
from simulator.answers.normalize import normalize_answer
from simulator.answers.roles import ROLE_NOUNS
from simulator.corpus.problems import Problem, did_you_mean
from simulator.corpus.spec import CorpusDecl, DomainFile, FormatDecl, UnitSpec

QUESTIONS_PER_UNIT = 3

_Fail = Callable[[str, str], None]

_FORMAT_HINTS = {
    "count": "write the number alone ('three' or '3'); the prose can say 'three reviewers'",
    "duration": "a number and a unit, like '30 days', 'six weeks', '10 business days'",
    "amount": "a currency sign and digits, like '$500' or '€1,200'",
    "percentage": "digits and '%' or 'percent', like '15%'",
    "frequency": "like 'every quarter', 'twice a year', 'monthly', 'every two weeks'",
    "time_of_day": "like '9:30 pm', '17:00', '9 a.m.', 'noon'",
    "role": ("two words or more ending in a role noun ('Finance Director', 'the line "
             "manager', 'Head of IT Operations'), not a bare noun or an acronym; role nouns "
             f"({', '.join(sorted(ROLE_NOUNS)[:8])}, ...)"),
    "system": "a capitalised name, like 'ServiceNow' or 'Expense Portal'",
}


def article(word: str) -> str:
    """``a`` or ``an`` before ``word`` (by its first letter: "an amount", "a role")."""
    return "an" if word[:1].lower() in "aeiou" else "a"


MIN_DOMAINS = 2
"""A spec of one domain is refused at validation, not at corrupted_metadata, after eight
scenarios were written (simulator/retrieval/corruption.py needs a domain to swap in)."""


def corpus_problems(corpus: CorpusDecl, file: str) -> list[Problem]:
    """Duplicates in ``corpus.toml`` and the answer formats it declares."""
    problems = []
    seen: dict[str, int] = {}
    for i, domain in enumerate(corpus.domains):
        if domain.id in seen:
            problems.append(Problem(file=file, field=f"domains[{i}].id", message=(
                f"domain {domain.id!r} is declared twice (also domains[{seen[domain.id]}]); "
                "a domain is declared once")))
        seen.setdefault(domain.id, i)
    if 0 < len(set(seen)) < MIN_DOMAINS:
        problems.append(Problem(file=file, field="domains", message=(
            f"{len(set(seen))} domain declared; a corpus needs at least {MIN_DOMAINS}: the "
            "corrupted_metadata scenario gives every document another domain's label, which "
            "a corpus of one domain does not have")))
    names = [d.name.strip().lower() for d in corpus.domains]
    for i, name in enumerate(names):
        if name in names[:i]:
            problems.append(Problem(file=file, field=f"domains[{i}].name", severity="warning",
                                    message=f"name {corpus.domains[i].name!r} is used twice"))
    for i, group in enumerate(corpus.access_groups):
        if group in corpus.access_groups[:i]:
            problems.append(Problem(file=file, field=f"access_groups[{i}]", severity="warning",
                                    message=f"access group {group!r} is listed twice"))
    declared: set[str] = set()
    for i, fmt in enumerate(corpus.formats):
        problems += _format_problems(fmt, f"formats[{i}]", declared, file)
        declared.add(fmt.name)
    return problems


def _format_problems(fmt: FormatDecl, field: str, declared: set[str],
                     file: str) -> list[Problem]:
    def problem(where: str, why: str) -> Problem:
        return Problem(file=file, field=f"{field}.{where}", message=why)

    if fmt.name in BUILTIN_FORMATS or fmt.name == CHOICE:
        return [problem("name", f"{fmt.name!r} is a built-in format; declare another name")]
    if fmt.name in declared:
        return [problem("name", f"format {fmt.name!r} is declared twice")]
    if not re.fullmatch(r"[a-z][a-z0-9_]*", fmt.name):
        return [problem("name", f"{fmt.name!r} must be lower_snake_case")]
    try:
        pattern = re.compile(fmt.pattern)
    except re.error as exc:
        return [problem("pattern", f"not a regular expression: {exc}")]
    if pattern.fullmatch(""):
        return [problem("pattern", "matches the empty string; a value needs at least one "
                                   "character")]
    return []


def unit_problems(unit: UnitSpec, corpus: CorpusDecl | None, file: str) -> list[Problem]:
    """Everything wrong with one unit that its field types do not already say."""
    problems: list[Problem] = []

    def fail(field: str, why: str) -> None:
        problems.append(Problem(file=file, field=field, message=why, unit=unit.id))

    if len(unit.questions) != QUESTIONS_PER_UNIT:
        fail("questions", f"expected exactly {QUESTIONS_PER_UNIT} question variants, "
                          f"got {len(unit.questions)}")
    if len({_question_key(q) for q in unit.questions}) != len(unit.questions):
        fail("questions", "question variants must differ")
    if corpus is not None and unit.access_group not in corpus.access_groups:
        fail("access_group", f"{unit.access_group!r} is not declared in corpus.toml."
                             f"{did_you_mean(unit.access_group, corpus.access_groups)}")
    cur, old = unit.current, unit.superseded
    if cur.version == old.version:
        fail("superseded.version", f"equals the current version {cur.version!r}")
    if old.effective_year >= cur.effective_year:
        fail("superseded.effective_year",
             f"{old.effective_year} is not before the current {cur.effective_year}")
    fmt = _format(unit, corpus, fail)
    if fmt is None:
        return problems
    descriptor = fmt.describe()
    if normalize_answer(cur.value, descriptor) == normalize_answer(old.value, descriptor):
        fail("superseded.value", f"equals the current value {cur.value!r}")
    for which, ver, other in (("current", cur, old), ("superseded", old, cur)):
        if not value_matches_format(ver.value, fmt):
            hint = _FORMAT_HINTS.get(fmt.name) or (
                f"one of the options: {', '.join(fmt.options)}" if fmt.kind == "choice"
                else f"a full match of the pattern {fmt.pattern!r}")
            fail(f"{which}.value", f"{ver.value!r} is not {article(fmt.name)} {fmt.name} value: "
                                   f"{hint}")
        if not _mentions(ver.prose, ver.value):
            fail(f"{which}.prose", f"does not state the value {ver.value!r}")
        theirs = {normalize_answer(v, descriptor) for v in (other.value, *other.aliases)}
        for alias in ver.aliases:
            if fmt.name != "yes_no" and normalize_answer(alias, descriptor) in theirs:
                fail(f"{which}.aliases", f"{alias!r} also names the other version's value")
        if fmt.name == "yes_no":
            polar = [a for a in ver.aliases if a.lower() in YES_NO]
            if len(polar) != 1:
                fail(f"{which}.aliases", "a yes_no value needs exactly one of yes / no")
    if fmt.name == "yes_no":
        polarity = {a.lower() for v in (cur, old) for a in v.aliases if a.lower() in YES_NO}
        if polarity != set(YES_NO) and all(
                len([a for a in v.aliases if a.lower() in YES_NO]) == 1 for v in (cur, old)):
            fail("superseded.aliases", "current and superseded must differ in yes / no")
    return problems


def _format(unit: UnitSpec, corpus: CorpusDecl | None, fail: _Fail) -> FormatSpec | None:
    """The unit's format, or None (after a problem) when it cannot be used."""
    declared = corpus.formats if corpus is not None else ()
    known = (*BUILTIN_FORMATS, CHOICE, *(d.name for d in declared))
    name = unit.answer_format
    if name not in known:
        fail("answer_format", f"unknown format {name!r}.{did_you_mean(name, known)} Known: "
                              f"{', '.join(known)} (declare others in corpus.toml [[formats]])")
        return None
    if name != CHOICE:
        if unit.options:
            fail("options", f"options are for choice units; this unit's format is {name}")
        decl = next((d for d in declared if d.name == name), None)
        if decl is not None and _bad_pattern(decl.pattern):
            return None  # reported on corpus.toml
        return FormatSpec(name=name, pattern=decl.pattern if decl else None,
                          normalise=decl.normalise if decl else ())
    options = unit.options
    keys = [normalize_answer(o) for o in options]
    if len(options) < 2:
        fail("options", "a choice unit lists at least two options")
        return None
    if len(set(keys)) != len(keys) or any(not k for k in keys):
        fail("options", "options must differ and not be empty")
        return None
    if any("|" in o or "(" in o or ")" in o for o in options):
        fail("options", "an option cannot contain '|', '(' or ')'")
        return None
    return FormatSpec(name=CHOICE, options=options)


def _bad_pattern(pattern: str) -> bool:
    try:
        return re.compile(pattern).fullmatch("") is not None
    except re.error:
        return True


def _mentions(text: str, value: str) -> bool:
    words = value.split()
    if len(words) > 1 and words[0].lower() in ("a", "an", "the"):
        value = " ".join(words[1:])  # "by rotating draw" states "a rotating draw"
    pattern = r"(?<![\w$€£])" + re.escape(value) + r"(?!\w)"
    return re.search(pattern, text, flags=re.IGNORECASE) is not None


def _question_key(question: str) -> str:
    return " ".join(question.lower().split())


def spec_problems(files: Sequence[DomainFile], corpus: CorpusDecl | None,
                  corpus_file: str) -> list[Problem]:
    """Problems across files: domains, unit ids, titles and questions used twice."""
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
        # A file that failed to parse, or names an undeclared domain (reported on that
        # file), may be the one meant to define the missing domain.
        if missing and all(f.header is not None and f.header.domain in declared
                           for f in files):
            problems.append(Problem(file=corpus_file, field="domains",
                                    message=f"no file defines {', '.join(dict.fromkeys(missing))}"))
    ids: dict[str, str] = {}
    titles: dict[str, tuple[str, str]] = {}
    asked: dict[str, tuple[str, str, str]] = {}
    shared: set[str] = set()  # questions a unit declares shared on purpose
    for f in files:
        domain = f.header.domain if f.header is not None else "?"
        for unit in f.units:
            here = str(f.path)
            if unit.id in ids:
                problems.append(Problem(file=here, field="id", unit=unit.id, message=(
                    f"duplicate id, first used in {_short(ids[unit.id], here)}")))
            ids.setdefault(unit.id, here)
            key = unit.title.strip().lower()
            if key in titles:
                other, where = titles[key]
                problems.append(Problem(file=here, field="title", unit=unit.id, message=(
                    f"{unit.title!r} is also the title of unit {other} "
                    f"({_short(where, here)}); the reader groups a policy's versions by "
                    "title, so titles must be unique")))
            titles.setdefault(key, (unit.id, here))
            own = {_question_key(q) for q in unit.questions}
            for i, q in enumerate(unit.shared_questions):
                if _question_key(q) not in own:
                    problems.append(Problem(file=here, field=f"shared_questions[{i}]",
                                            unit=unit.id, message=(
                        f"{q!r} is not one of this unit's questions; list a question "
                        "exactly as the unit asks it")))
            for question in dict.fromkeys(unit.questions):
                qkey = _question_key(question)
                if qkey in asked and asked[qkey][0] != unit.id:
                    problem = _duplicate_question(question, unit.id, domain, here,
                                                  asked[qkey])
                    deliberate = qkey in shared or any(
                        _question_key(q) == qkey for q in unit.shared_questions)
                    if problem.severity == "error" or not deliberate:
                        problems.append(problem)
                asked.setdefault(qkey, (unit.id, domain, here))
                if any(_question_key(q) == qkey for q in unit.shared_questions):
                    shared.add(qkey)
    return problems


def _duplicate_question(question: str, unit: str, domain: str, file: str,
                        first: tuple[str, str, str]) -> Problem:
    other, other_domain, where = first
    if other_domain == domain:
        return Problem(file=file, field="questions", unit=unit, message=(
            f"{question!r} is also a question of unit {other} ({_short(where, file)}) in the "
            "same domain: no retriever can tell the two apart; reword one"))
    return Problem(file=file, field="questions", unit=unit, severity="warning", message=(
        f"{question!r} is also asked by unit {other} ({_short(where, file)}, domain "
        f"{other_domain}) with another answer: no label-free retriever can answer both. "
        "`layerrag audit retriever` follows it as a cross-domain collision; reword one, or "
        "declare it deliberate with shared_questions = [...] in either unit"))


def _short(path: str, relative_to: str) -> str:
    """A file name alone when both files share a folder."""
    a, b = Path(path), Path(relative_to)
    return a.name if a.parent == b.parent else path


__all__ = ["QUESTIONS_PER_UNIT", "corpus_problems", "spec_problems", "unit_problems"]
