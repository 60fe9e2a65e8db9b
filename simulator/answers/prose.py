"""Answers as people write them: a final message in prose, read by the task's answer format.

Most agents people ship end with a sentence, not a structured submission: "The return window
for a regular purchase is 30 days [doc_1a2b]." Scoring that sentence verbatim would fail it
on exact match for being a sentence; crediting any sentence would pass a wrong one. So prose
is read the way the extractive reader reads a document, and by nothing looser:

- **the value** is what :func:`simulator.answers.extract.extract_value` finds in the text for
  the task's question and answer format (the same patterns, spelled numbers and choice
  options as everywhere). The scorer then normalises it as it normalises every answer
  (:mod:`simulator.answers.normalize`). Three prose-only rules, tried first, because an
  answer is the agent's own statement rather than a document to search:

  1. a ``yes_no`` answer that opens with "yes" or "no", or says "the answer is yes/no", is
     that word, whatever negations the explanation after it holds ("No. Contractors may
     not ...");
  2. "the answer is X" (up to a citation or the end of the sentence) is X when X is, in full,
     one value of the format (:func:`simulator.answers.formats.value_matches_format`):
     "The answer is three [doc_1]";
  3. then the extractor; and, for a format with plainly written values
     (:data:`simulator.answers.extract.PLAIN_WRITTEN`), failing that, the first plainly
     written value in the text ("You have fourteen days."), which the extractor takes from
     a document only in a sentence that shares a word with the question;
- **citations** are the ``[doc_id]`` brackets (:data:`CITATION`), in order, once each; they
  are removed before the value is read, so an id's digits never read as a count;
- **an abstention** is recognised by a short, fixed list of phrases (:data:`ABSTENTION_PHRASES`,
  case-insensitive, curly apostrophes read as straight ones). A message that uses one is a
  non-answer whatever value it also mentions: "I can't find the current window; an older
  version said 30 days" hedges, and a hedge is not credited as an answer;
- **anything else** (no value of the format, no abstention phrase) is unparseable: a reader
  error, as for a chat reader whose output cannot be read, never a silent pass and never a
  safe non-answer.

The answer's ``reason`` says it was read from prose, so ``layerrag show`` tells a prose answer
from a submitted one; ``reason`` never reaches an archive (simulator/archive/row.py).
:func:`prose_answer` and :func:`prose_abstention` write the sentences the offline driver ends
with when an agent binds no structured answer, so writer and reader are kept in one place.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from simulator.answers.extract import PLAIN_WRITTEN, candidates, extract_value, sentences
from simulator.answers.formats import FormatSpec, parse_format, value_matches_format
from simulator.answers.schema import AgentAnswer, unknown_answer

CITATION = re.compile(r"\[([A-Za-z0-9._:-]+)\]")
"""A citation in prose: a document id in square brackets, ``[doc_01ade9a17b9d]``."""

ABSTENTION_PHRASES: tuple[str, ...] = (
    r"i (?:can't|cannot|can not|could not|couldn't|am unable to|was unable to) "
    r"(?:find|answer|determine)",
    r"unable to (?:find|answer|determine)",
    r"i (?:don't|do not) know",
    r"not (?:stated |mentioned |given |specified |found )?in the "
    r"(?:provided |retrieved |available )?(?:documents?|sources?|evidence|context)",
    r"(?:insufficient|not enough) (?:evidence|information)",
)
"""What an abstention in prose says, as regular expressions matched case-insensitively
anywhere in the message: "I can't find / cannot answer / couldn't determine", "unable to
find", "I don't know", "not (stated) in the (provided) documents / sources / evidence /
context", "insufficient / not enough evidence / information". Narrow on purpose: a phrase
that also occurs in answers ("not allowed", "no longer") would turn answers into abstentions.
"""
_ABSTENTION = re.compile("|".join(f"(?:{p})" for p in ABSTENTION_PHRASES), re.IGNORECASE)
_YES_NO = re.compile(r"^\W*(yes|no)\b|\bthe answer is:?\s*(yes|no)\b", re.IGNORECASE)
_THE_ANSWER_IS = re.compile(
    r"\bthe answer is:?\s+(?P<value>[^\[\n;]+?)\s*(?:\[|[.!;]?\s*$|[.!;]\s)", re.IGNORECASE)

PROSE_NOTE = "read from the agent's prose"
"""How the ``reason`` of an answer read from prose begins."""
ABSTAINED_NOTE = "abstained in prose"
"""How the ``reason`` of an abstention read from prose begins."""


class ProseReading(NamedTuple):
    """An answer read from prose, and whether the prose could not be read (a reader error)."""

    answer: AgentAnswer
    unparseable: bool


def citations_in(text: str) -> tuple[str, ...]:
    """The ``[doc_id]`` citations of ``text``, in order of first mention."""
    return tuple(dict.fromkeys(CITATION.findall(text)))


def abstention_in(text: str) -> str | None:
    """The abstention phrase ``text`` uses (as written), or None."""
    found = _ABSTENTION.search(text.replace("\u2019", "'"))
    return found.group(0) if found else None


def read_prose(text: str, question: str,
               answer_format: str | FormatSpec | None) -> ProseReading:
    """The answer ``text`` gives to ``question`` in ``answer_format`` (module docstring)."""
    text = text.strip()
    if abstention_in(text) is not None:
        return ProseReading(unknown_answer(f"{ABSTAINED_NOTE}: {text}"), False)
    citations = citations_in(text)
    value = _value(text, question, answer_format) if answer_format is not None else None
    if value is None:
        what = _format_name(answer_format)
        return ProseReading(unknown_answer(
            f"reader error: the agent's prose states no {what} value and no abstention"),
            True)
    return ProseReading(AgentAnswer(answer=value, citations=citations,
                                    reason=f"{PROSE_NOTE}: {text}"), False)


def _value(text: str, question: str, answer_format: str | FormatSpec) -> str | None:
    """The value of ``text`` by the rules of the module docstring, in their order."""
    fmt = parse_format(answer_format) if isinstance(answer_format, str) else answer_format
    body = CITATION.sub(" ", text)
    if fmt.name == "yes_no":
        said = _YES_NO.search(body)
        if said is not None:
            return (said.group(1) or said.group(2)).lower()
    stated = _THE_ANSWER_IS.search(text)
    if stated is not None and fmt.name != "yes_no" and \
            value_matches_format(stated.group("value"), fmt):
        return stated.group("value")
    found = extract_value(body, question, fmt)
    if found is None and fmt.name in PLAIN_WRITTEN:
        found = next((c for s in sentences(body) for c in candidates(s, fmt, plain=True)),
                     None)
    return found


def _format_name(answer_format: str | FormatSpec | None) -> str:
    if answer_format is None:
        return "answer-format"
    return answer_format.name if isinstance(answer_format, FormatSpec) else \
        answer_format.split(" (")[0]


def prose_answer(value: str, citations: tuple[str, ...] | list[str]) -> str:
    """A one-sentence prose answer that :func:`read_prose` reads back as ``value``."""
    cited = "".join(f" [{c}]" for c in citations)
    return f"The answer is {value}{cited}."


def prose_abstention(reason: str) -> str:
    """A one-sentence abstention that :func:`read_prose` recognises, with its reason."""
    end = "" if reason.rstrip().endswith("?") else "."  # a clarifying question keeps its "?"
    return f"I cannot answer from the documents: {reason.rstrip()}{end}"
