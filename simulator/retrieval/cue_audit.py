"""Domain cues that cannot work or that point two ways, found before a run.

The cue rule (:mod:`simulator.retrieval.domain_cues`) matches query *words*, so a cue that is
not one word of letters and digits ("follow-up", "purchase order") can never match: a spec
that lists one silently loses it. A cue whose word forms meet a cue of another domain
("claim" in returns and in finance) counts for both, so every question containing it is
pulled two ways; :func:`shared_cues` finds them and :func:`cue_problems` says which questions
they make ambiguous. ``layerrag corpus validate`` reports both; the retriever audit follows
shared cues and ties on the generated tasks.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple

from simulator.corpus.loader import SpecCheck, register_spec_check
from simulator.corpus.problems import Problem
from simulator.retrieval.domain_cues import DomainCues, query_words, word_forms

SHOWN = 3
"""Questions named in one warning before "and N more"."""


class SharedCue(NamedTuple):
    """A cue word of one domain whose forms meet a cue word of another."""

    cue: str
    domain: str
    other_cue: str
    other_domain: str


def unmatchable(cue: str) -> bool:
    """Whether ``cue`` can never equal a query word (it is not one word of letters/digits)."""
    return query_words(cue) != [cue.lower()]


def shared_cues(cues: Mapping[str, Sequence[str]]) -> list[SharedCue]:
    """Every pair of cues of different domains that match a common word, in corpus order."""
    entries = [(domain, cue, word_forms(cue)) for domain, words in cues.items()
               for cue in words if not unmatchable(cue)]
    shared = []
    for i, (domain, cue, forms) in enumerate(entries):
        for other_domain, other_cue, other_forms in entries[:i]:
            if other_domain != domain and forms & other_forms:
                shared.append(SharedCue(cue, domain, other_cue, other_domain))
    return shared


def matches(cue: str, question: str) -> bool:
    """Whether ``cue`` counts for ``question`` under the cue rule."""
    forms = word_forms(cue)
    return any(forms & word_forms(word) for word in query_words(question))


class _Question(NamedTuple):
    unit: str
    domain: str
    text: str


@register_spec_check
def cue_problems(check: SpecCheck) -> list[Problem]:
    """Unmatchable cues (errors), and cues repeated in a domain or shared across domains
    (warnings naming the questions they make ambiguous), for every file that has cues."""
    problems: list[Problem] = []
    cues: dict[str, tuple[str, ...]] = {}
    files: dict[str, str] = {}
    questions: list[_Question] = []
    for f in check.files:
        if f.header is None:
            continue
        file, domain = str(f.path), f.header.domain
        files.setdefault(domain, file)
        cues.setdefault(domain, f.header.cues)
        questions += [_Question(u.id, domain, q) for u in f.units for q in u.questions]
        for i, cue in enumerate(f.header.cues):
            if unmatchable(cue):
                parts = query_words(cue)
                hint = f"; list {' and '.join(repr(p) for p in parts)} instead" if parts else ""
                problems.append(Problem(file=file, field=f"cues[{i}]", message=(
                    f"cue {cue!r} can never match: queries are split into words at every "
                    f"character that is not a letter or digit{hint}")))
        problems += _repeated(f.header.cues, file)
    heuristic = DomainCues(cues=cues)
    for shared in shared_cues(cues):
        affected = [q for q in questions if matches(shared.cue, q.text)]
        tied = [q for q in affected if heuristic.infer(q.text).domain is None]
        problems.append(Problem(
            file=files[shared.domain], field="cues", severity="warning",
            message=f"cue {shared.cue!r} also matches cue {shared.other_cue!r} of domain "
                    f"{shared.other_domain}, so it counts for both: {_effect(affected, tied)}"))
    return problems


def _repeated(cues: Sequence[str], file: str) -> list[Problem]:
    problems = []
    for i, cue in enumerate(cues):
        for earlier in cues[:i]:
            if not unmatchable(cue) and word_forms(cue) & word_forms(earlier):
                problems.append(Problem(
                    file=file, field=f"cues[{i}]", severity="warning",
                    message=f"cue {cue!r} matches the same words as {earlier!r}: one word "
                            "of a question counts as two hits; keep one"))
                break
    return problems


def _effect(affected: Sequence[_Question], tied: Sequence[_Question]) -> str:
    if not affected:
        return "no question contains it yet"
    line = f"{len(affected)} question{'s' if len(affected) > 1 else ''} contain it"
    if tied:
        line += f", and the domain heuristic ties on {len(tied)}: {_name(tied)}"
    else:
        line += f" ({_name(affected)}); other cues still decide each of them"
    return line


def _name(questions: Iterable[_Question]) -> str:
    listed = [f"{q.unit} {q.text!r}" for q in questions]
    more = len(listed) - SHOWN
    return "; ".join(listed[:SHOWN]) + (f"; and {more} more" if more > 0 else "")
