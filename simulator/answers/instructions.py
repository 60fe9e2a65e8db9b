"""The steps a knowledge-base article tells its reader to take, read from its prose.

A support reply says what to do in order; layerrag's offline agents take that order from the
article they cite. English instructions are imperative clauses, which open with their verb
("Check the installed agent with `bkpctl --version` first", "drain the node"), while a
statement opens with its subject ("Servers still on the 6.x line install 6.9.8"). With no
part-of-speech tagger, the opening words decide. A clause is an instruction unless

- its first word is a function word, a number, a code or a word in capitals;
- its first word ends as a plural noun, a past form, a gerund, an adverb or an abstract
  noun mostly do (-s, -ed, -ing, -ly, -ion: "Detection rule RAN-900 fires");
- a code or a number follows it (a name: "Error BKP-4102 means");
- a plural noun and a verb follow it ("Late requests get a loan laptop");
- the first function word after it is a modal or a form of "be" or "have", which makes
  the words before it a subject ("Internal TLS certificates must be renewed");
- it forbids ("Never delete the catalog", "Do not ..."): a prohibition, not a step.

Clauses are the article's sentences split at semicolons, at ", then", and at the commas and
"and"s that join a list of instructions ("Read the log, drain the node, and reinstall the
runtime"). It is a heuristic and says so: a noun that opens a sentence without an article
("Overtime approved after ...") reads as a step. The case scorer ignores a step that
matches no workflow action, so such a step costs nothing unless it names a prohibited one.
"""

from __future__ import annotations

import re

from simulator.answers.extract import sentences, stop_words

_DETERMINER = r"(?:the|a|an|its|their|his|her|our|your|this|that|every|all|each|any)\b"
_CLAUSE = re.compile(r";\s+|,\s+then\s+|,\s+(?:and\s+)?(?=[a-z])"
                     rf"|\s+and\s+(?!{_DETERMINER})(?=[a-z]+\s)")
_FORBIDS = re.compile(r"^(?:never|do not|don't|must not|no)\b", re.IGNORECASE)
_NOT_A_VERB_ENDING = ("s", "ed", "ing", "ly", "ion")
_JOINS = frozenset({"of", "to", "for", "with", "on", "in", "at", "from", "by", "and", "or",
                    "the", "a", "an", "every", "all", "each", "into", "before", "after",
                    "until", "as", "that", "which"})
"""Words that may follow a verb's plural object ("reset credentials of every account")."""
_LEAD = frozenset({"then", "and", "first", "also", "finally", "next", "please"})
_FINITE = frozenset({"must", "may", "can", "could", "should", "will", "would", "shall", "is",
                     "are", "was", "were", "be", "been", "has", "have", "had"})


def is_instruction(clause: str) -> bool:
    """Whether ``clause`` reads as an instruction (module docstring)."""
    words = [w for w in re.findall(r"[A-Za-z][\w'-]*|\S+", clause.strip())]
    while words and words[0].lower() in _LEAD:
        words = words[1:]
    if len(words) < 2 or _FORBIDS.match(" ".join(words)):
        return False
    first = words[0]
    if not first.isalpha() or (first.isupper() and len(first) > 1):
        return False
    if any(ch.isdigit() for ch in words[1]):  # a name: "Error BKP-4102", "Driver 5.1.4"
        return False
    if (len(words) > 2 and words[1].endswith("s") and words[1].lower() not in stop_words()
            and words[2].isalpha()
            and words[2].islower() and words[2] not in _JOINS):
        return False  # a plural subject, then its verb: "Late requests get", "badges never"
    lower = first.lower()
    if lower in stop_words() or lower.endswith(_NOT_A_VERB_ENDING):
        return False
    # a subject before a modal or a form of "be" ("Internal TLS certificates must be ...")
    lead = next((w.lower() for w in words[1:] if w.lower() in stop_words()), None)
    if lead in _FINITE:
        return False
    return first[0].islower() or first == first.capitalize()


def instructions(text: str) -> tuple[str, ...]:
    """The instructions of an article, in its order, as written (a clause's final stop
    left out); a lead word ("then", "first") stays with its clause."""
    steps: list[str] = []
    for sentence in sentences(text):
        for clause in _CLAUSE.split(sentence):
            clause = clause.strip().rstrip(".;")
            if clause and is_instruction(clause) and clause not in steps:
                steps.append(clause)
    return tuple(steps)


__all__ = ["instructions", "is_instruction"]
