"""The designated incorrect value of a task, and a document edited to assert it (RAG-Stress).

RAG-Stress holds the question and the reference answer fixed and edits one assertion of the
evidence so that it supports a *designated incorrect* answer (the foil). Two things make a
foil a clean probe, and both are promised here:

- it has the task's answer format (a duration stays a duration, a role a role), so a reader
  that adopts it gives a well-formed answer, and the scorer can tell adoption (``misled``)
  from any other error by one exact match;
- it never normalises like an accepted answer *or* a superseded one, so adopting the foil is
  never also a correct or a merely stale answer.

The foil depends only on public inputs, through one pure function, :func:`document_foil`:
the task's question and answer format, the text of the document to be edited, the texts of
that document's older versions (its published lineage), and the record key (seed and task
id). The value the document states is *read* from its text (the label-free extractor of
:mod:`simulator.answers.extract`), the values its older versions state likewise, and the foil
is drawn to be neither. So the fault that serves the edit (``misleading_evidence``, which has
no labels) and the scorer that checks for it (:mod:`simulator.scoring.misleading`, handed the
same document and lineage) compute the same value without talking to each other.
A yes/no task whose current and superseded values take both polarities (every yes/no unit of
enterprise_v2) has no such value: :func:`designated_incorrect` returns None and the task is
outside the protocol (nothing is edited; ``misled`` stays unset).

:func:`edited_text` rewrites the sentence that states the accepted value with the foil and
moves it to the ``beginning``, ``middle`` or ``end`` of the text; the other sentences keep
their words and order. Short documents have few sentence boundaries: when the rest of the
text is a single sentence, ``middle`` sets the edited sentence between its two halves (cut at
the word boundary nearest its middle), joined by semicolons, so the answer span still sits
mid-text.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from simulator.answers.extract import candidates, extract_value, sentences
from simulator.answers.formats import FormatSpec, parse_format, value_matches_format
from simulator.answers.normalize import matches_any
from simulator.answers.numbers import digits_for_words

Position = Literal["beginning", "middle", "end"]
"""Where the edited answer span sits in the served text (RAG-Stress's Word Position)."""
POSITIONS: tuple[Position, ...] = get_args(Position)

ROLE_FOILS = ("Chief Risk Officer", "Regional Operations Manager", "Compliance Director",
              "Head of Procurement", "Internal Audit Lead", "Deputy Controller",
              "Facilities Coordinator", "Vice President of Sales")
SYSTEM_FOILS = ("ServiceNow", "Workday", "Jira", "SAP Ariba", "Salesforce", "Zendesk",
                "Coupa", "Confluence")
FREQUENCY_FOILS = ("daily", "weekly", "every two weeks", "monthly", "quarterly",
                   "twice a year", "annually", "every three years")
TIME_FOILS = ("7 a.m.", "9 a.m.", "11 a.m.", "2 p.m.", "4 p.m.", "6 p.m.", "8 p.m.",
              "10 p.m.")
"""Pools for formats whose values are not numbers to shift: drawn in a seeded order."""

_NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")
_SHIFTED = ("double", "triple", "half", "plus_one", "plus_five", "plus_ten", "minus_one",
            "plus_half")
_TRIES = 64


def foil_key(seed: int, task_id: str) -> str:
    """The key a foil is drawn with: the fault's record key (seed and task, no attempt)."""
    return f"{seed}|{task_id}"


@dataclass(frozen=True)
class DocumentFoil:
    """The designated incorrect value for one document, and the value it replaces."""

    value: str
    """The foil: of the task's format, stated neither by the document nor its older versions."""
    stated: str
    """The value the document states in answer to the question (read from its text)."""


def document_foil(key: str, question: str, answer_format: str | FormatSpec, text: str,
                  older_texts: Sequence[str] = ()) -> DocumentFoil | None:
    """The foil of the document ``text`` for ``question`` (record key ``key``), or None.

    ``older_texts``: the texts of the document's older versions, oldest first (the
    registry's lineage); the values they state are excluded as superseded ones. None when
    the document states no value of the format for the question, or when the format leaves
    no room for a foil (:func:`designated_incorrect`). Pure: the same inputs give the same
    foil, which is what lets the fault and the scorer agree.
    """
    stated = extract_value(text, question, answer_format)
    if stated is None:
        return None
    older = [v for t in older_texts if (v := extract_value(t, question, answer_format))]
    value = designated_incorrect(key, answer_format, (stated,), older)
    return DocumentFoil(value=value, stated=stated) if value is not None else None


def designated_incorrect(key: str, answer_format: str | FormatSpec, accepted: Sequence[str],
                         superseded: Sequence[str]) -> str | None:
    """A value of ``answer_format`` that is neither accepted nor superseded, or None.

    Deterministic in ``key`` (:func:`foil_key`); None only when the format leaves no room
    (a yes/no task with both polarities taken, a choice with every option taken, a declared
    pattern no mutation of the accepted value satisfies).
    """
    fmt = parse_format(answer_format) if isinstance(answer_format, str) else answer_format
    rng = random.Random(f"{key}|designated_incorrect")
    taken = (*accepted, *superseded)
    for value in _proposals(fmt, accepted[0] if accepted else "", rng):
        if value_matches_format(value, fmt) and not matches_any(value, taken, fmt):
            return value
    return None


def _proposals(fmt: FormatSpec, value: str, rng: random.Random) -> list[str]:
    if fmt.name == "yes_no":
        return ["no", "yes"]
    if fmt.kind == "choice":
        return _shuffled(fmt.options, rng)
    pools = {"role": ROLE_FOILS, "system": SYSTEM_FOILS, "frequency": FREQUENCY_FOILS,
             "time_of_day": TIME_FOILS}
    if fmt.name in pools:
        return _shuffled(pools[fmt.name], rng)
    if fmt.kind == "declared":
        return [_mutated(value, rng) for _ in range(_TRIES)]
    return _shifted_numbers(digits_for_words(value), fmt.name, rng)


def _shuffled(values: Sequence[str], rng: random.Random) -> list[str]:
    out = list(values)
    rng.shuffle(out)
    return out


def _shifted_numbers(value: str, fmt_name: str, rng: random.Random) -> list[str]:
    """``value`` with its first number replaced by nearby, plausible others."""
    found = _NUMBER.search(value)
    if found is None:
        return []
    text = found.group(0)
    number = float(text.replace(",", ""))
    shifted = {"double": number * 2, "triple": number * 3, "half": number / 2,
               "plus_one": number + 1, "plus_five": number + 5, "plus_ten": number + 10,
               "minus_one": number - 1, "plus_half": number * 1.5}
    out = []
    for name in _shuffled(_SHIFTED, rng):
        new = shifted[name]
        if new <= 0 or new == number or (fmt_name == "percentage" and new > 100):
            continue
        out.append(value[: found.start()] + _written_like(new, text) + value[found.end():])
    return out


def _written_like(number: float, like: str) -> str:
    """``number`` written as ``like`` is: decimals only if it had them, commas if it had."""
    decimals = len(like.partition(".")[2])
    if not decimals:
        number = float(round(number))
    body = f"{number:,.{decimals}f}" if "," in like else f"{number:.{decimals}f}"
    return body


def _mutated(value: str, rng: random.Random) -> str:
    """``value`` with one digit or capital letter changed (for declared patterns)."""
    spots = [i for i, ch in enumerate(value) if ch.isdigit() or ch.isupper()]
    if not spots:
        return value
    at = rng.choice(spots)
    pool = "0123456789" if value[at].isdigit() else "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return value[:at] + rng.choice([c for c in pool if c != value[at]]) + value[at + 1:]


def asserting_spans(sentence: str, answer_format: str | FormatSpec,
                    accepted: Sequence[str]) -> list[str]:
    """The spans of ``sentence`` that state an accepted value (as written there)."""
    fmt = parse_format(answer_format) if isinstance(answer_format, str) else answer_format
    if fmt.name == "yes_no":
        return []  # a polarity has no span to replace
    found = [*candidates(sentence, fmt), *candidates(sentence, fmt, plain=True)]
    return [c for c in dict.fromkeys(found) if matches_any(c, accepted, fmt)]


def edited_text(text: str, answer_format: str | FormatSpec, accepted: Sequence[str],
                foil: str, position: Position) -> str | None:
    """``text`` with its assertion of the accepted value changed to ``foil`` and moved to
    ``position``; None when no sentence states an accepted value as a span."""
    parts = sentences(text)
    stating = [i for i, s in enumerate(parts) if asserting_spans(s, answer_format, accepted)]
    if not stating:
        return None
    edited = list(parts)
    for i in stating:
        for span in asserting_spans(parts[i], answer_format, accepted):
            edited[i] = edited[i].replace(span, foil)
    assertion = edited[stating[0]]
    rest = [s for i, s in enumerate(edited) if i != stating[0]]
    if position == "beginning" or not rest:
        return " ".join([assertion, *rest])
    if position == "end":
        return " ".join([*rest, assertion])
    if len(rest) >= 2:
        cut = len(rest) // 2
        return " ".join([*rest[:cut], assertion, *rest[cut:]])
    words = rest[0].split(" ")
    half = len(words) // 2
    left = " ".join(words[:half]).rstrip(",;:")
    right = " ".join(words[half:])
    return f"{left}; {assertion.rstrip('.')}; {right}"
