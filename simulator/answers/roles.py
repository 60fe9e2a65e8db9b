"""Roles as policy prose names them: "the regional facilities lead", "the requesting team's
manager", "Finance Director".

A capitalised title is easy to spot; a lowercase one is not, so a role phrase is found by its
head: a word from :data:`ROLE_NOUNS` (the last of a run, so "finance team lead" ends at
"lead"), with up to four modifiers before it ("regional facilities", "requesting team's") and
an optional "of ..." complement after it ("head of security operations"). Modifiers stop at
function words, so the determiner and whatever verb precedes the phrase stay out of it.
"""

from __future__ import annotations

import re
from typing import NamedTuple

ROLE_NOUNS = frozenset({
    "accountant", "administrator", "admin", "adviser", "advisor", "agent", "analyst",
    "approver", "architect", "assistant", "auditor", "board", "champion", "chair",
    "chairperson", "clerk", "committee", "consultant", "contact", "controller", "coordinator",
    "council", "counsel", "custodian", "delegate", "department", "deputy", "designee", "desk",
    "director", "engineer", "executive", "group", "head", "lead", "leader", "liaison",
    "manager", "officer", "operator", "owner", "panel", "partner", "planner", "president",
    "representative", "reviewer", "secretary", "specialist", "sponsor", "steward",
    "supervisor", "team", "technician", "treasurer",
})
"""Words that end a role phrase. "office" and "unit" are left out: they name places and
things at least as often as people."""

MAX_MODIFIERS = 4

FUNCTION_WORDS = frozenset({
    "a", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been", "being", "both",
    "but", "by", "can", "could", "each", "either", "every", "for", "from", "had", "has",
    "have", "her", "his", "if", "in", "into", "is", "its", "may", "might", "must", "my",
    "neither", "no", "nor", "not", "of", "on", "only", "or", "our", "shall", "should", "some",
    "than", "that", "the", "their", "then", "these", "this", "those", "to", "via", "was",
    "were", "when", "which", "who", "whom", "whose", "will", "with", "would", "your",
})
"""Words that cannot be part of a role's modifiers: they start or join phrases."""

_TOKEN = re.compile(r"[A-Za-z][A-Za-z'’-]*[A-Za-z]|[A-Za-z]")


class Span(NamedTuple):
    start: int
    end: int
    text: str


def _head(token: str) -> bool:
    return token.lower() in ROLE_NOUNS


def role_phrases(sentence: str) -> list[Span]:
    """Every role phrase in ``sentence``, left to right, determiners left out."""
    tokens = list(_TOKEN.finditer(sentence))
    found = []
    for i, token in enumerate(tokens):
        if not _head(token.group(0)) or (_joined(sentence, tokens, i)
                                          and _head(tokens[i + 1].group(0))):
            continue  # not a role noun, or not the last of a run ("team" in "team lead")
        first = i
        while (i - first < MAX_MODIFIERS and first > 0 and _joined(sentence, tokens, first - 1)
               and tokens[first - 1].group(0).lower() not in FUNCTION_WORDS):
            first -= 1
        last = _complement(sentence, tokens, i)
        start, end = tokens[first].start(), tokens[last].end()
        found.append(Span(start, end, sentence[start:end]))
    return found


def _joined(sentence: str, tokens: list[re.Match[str]], i: int) -> bool:
    """Whether tokens ``i`` and ``i + 1`` are separated by spaces only."""
    return i + 1 < len(tokens) and not sentence[tokens[i].end():tokens[i + 1].start()].strip()


def _complement(sentence: str, tokens: list[re.Match[str]], head: int) -> int:
    """The last token of an "of ..." complement after ``head`` ("head of security"), or
    ``head`` itself when there is none or it starts with a function word ("of the")."""
    if not (_joined(sentence, tokens, head) and tokens[head + 1].group(0) == "of"):
        return head
    last = head + 1
    while (last - head <= 3 and _joined(sentence, tokens, last)
           and tokens[last + 1].group(0).lower() not in FUNCTION_WORDS):
        last += 1
    return last if last > head + 1 else head


_ROUTED = re.compile(
    r"(?:\b(?:by|to|from|tell|tells|notify|notifies|inform|informs|contact|contacts|ask|"
    r"asks|consult|consults)\s+|^)"
    r"(?:(?:the|a|an|their|your|our|its|his|her|each|every|any)\s+)?$",
    re.IGNORECASE)


def named_roles(sentence: str) -> list[Span]:
    """Lowercase-headed role phrases that the sentence names as an actor: its subject ("The
    duty manager approves ..."), after by / to / from ("approved by the regional facilities
    lead", "escalated to their line manager") or as the one to tell, notify, inform, contact,
    ask or consult ("tell your line manager").

    A role noun elsewhere is too often a mention rather than the answer ("after speaking with
    a team lead", "outside the hiring team"). Capitalised titles are found as names.
    """
    return [span for span in role_phrases(sentence)
            if span.text.split()[-1][0].islower() or " of " in span.text
            and span.text.split(" of ")[0].split()[-1][0].islower()
            if _ROUTED.search(sentence[:span.start])]


def is_role_phrase(value: str) -> bool:
    """Whether ``value`` is, in full, one role phrase (a leading determiner allowed)."""
    words = value.split()
    if words and words[0].lower() in ("the", "a", "an", "each", "every", "your", "their"):
        value = " ".join(words[1:])
    spans = role_phrases(value)
    return any(s.start == 0 and s.end == len(value) for s in spans)


def is_role_value(value: str) -> bool:
    """Whether ``value`` may be a ``role`` answer in a spec: a role phrase of at least two
    words whose head is a role noun (:data:`ROLE_NOUNS`): "Finance Director", "the line
    manager", "Head of IT Operations". A bare noun ("panel"), an acronym ("ERP", "CFO") or a
    capitalised name without a role noun ("Lockers") is not a role a reader can be held to:
    write the title out ("the review panel", "Chief Financial Officer")."""
    words = value.split()
    if words and words[0].lower() in ("the", "a", "an", "each", "every", "your", "their"):
        words = words[1:]
    if len(words) < 2:
        return False
    head = " ".join(words).split(" of ")[0].split()[-1]
    return re.sub(r"['’]s$|[^A-Za-z]", "", head).lower() in ROLE_NOUNS
