"""Label-free extraction of a value of a given format from policy prose.

The deterministic reader answers the way a careful extractive system would: pick the
sentence that best matches the question and holds a value of the requested format, then
pick, inside it, the candidate the question does not already mention. It never sees labels.

A turn of a conversation is read with its thread (:class:`Thread`): the sentence that speaks
to the turn's own message wins, the earlier messages break ties, a value the agent already
gave is read only when nothing new is there, and names are held to their kind.

A ``choice`` is read differently: its options are public, and the question may well name
them all ("by a rotating draw or by length of service?"), so the reader takes the option
the best-matching sentence states and does not set aside ("no longer by length of service").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import lru_cache

from simulator.answers.formats import NEGATION, PATTERNS, FormatSpec, parse_format
from simulator.answers.numbers import digits_for_words
from simulator.answers.roles import ROLE_NOUNS, named_roles

_SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=[A-Z0-9$€£\"'(])")
_WORD = re.compile(r"[a-z0-9]+")
_YEAR = re.compile(r"^(?:19|20)\d\d$")
PLAIN_WRITTEN = frozenset({"count", "duration", "role"})
"""Formats with a marked and a plain way of writing a value: digits or words ("30 days",
"thirty days"), a capitalised title or a lowercase phrase ("Finance Director", "the regional
facilities lead"). Marked values are unambiguous in prose; plain ones are not ("one of
them", "after speaking with a team lead"), so a document is read for a plain value only
when it states no marked one, and only from a sentence that shares a word with the question.
"""
MARKED_ONLY = frozenset({"duration", "amount", "count", "percentage", "role", "system",
                         "yes_no"})
"""The original formats, whose marked reading is exactly what it was before plain values
existed: enterprise_v2's deterministic numbers rest on it."""
_NOT_A_COUNT = ("duration", "amount", "percentage")
_COUNTED = re.compile(r"\s+[a-z]")
"""A spelled count counts something ("three reviewers"); "where a supplier offers one" and
"one week in six" use number words as pronouns."""
"""Formats whose spans hold numbers that are not counts ("30 days", "$500", "15%")."""
_SET_ASIDE = re.compile(
    r"\b(?:not|no longer|never|nor|rather than|instead of|in place of|replac\w*|"
    r"formerly|previously|used to(?: be)?|was once|superseded|retired|dropped|abolished)"
    r"\b(?:(?!\bbut\b)[^,;:]){0,40}$", re.IGNORECASE)
"""Words shortly before an option, in its clause, that set it aside: "no longer by length of
service" (but not "no longer by seniority but by a rotating draw")."""


@dataclass(frozen=True)
class Thread:
    """What a turn of a conversation is read with, beside its message (the question).

    A follow-up ("and on the older firmware?") is about the thread's topic but asks for
    something of its own, so the sentence sharing most words with the message is read,
    the earlier messages breaking ties. A candidate either names is no answer (it is what
    was asked about). A value the agent already stated is read only when the document
    states nothing new: a follow-up asks for something new, unless nothing new is there.
    With ``names_by_kind`` a capitalised phrase is a role only when it holds a role noun
    ("Building Manager", not "Close" opening "Close the valve") and a system only when it
    holds none: the single-question reader keeps its original reading (module docstring of
    simulator/readers/deterministic.py)."""

    context: str = ""
    """The thread's earlier user messages, joined."""
    said: tuple[str, ...] = ()
    """The agent's earlier replies in the thread."""
    names_by_kind: bool = False


SINGLE_QUESTION = Thread()
"""A question asked on its own: no thread, the original reading."""


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


@lru_cache(maxsize=1)
def stop_words() -> frozenset[str]:
    """scikit-learn's English stop words (the retriever's own), imported on first use:
    scikit-learn takes over a second to import, and ``layerrag list`` or a configuration
    error reaches this module without extracting anything."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return ENGLISH_STOP_WORDS


def content_words(text: str) -> set[str]:
    """Lower-cased, stemmed words that are not stop words."""
    stop = stop_words()
    return {_stem(w) for w in _WORD.findall(text.lower()) if w not in stop}


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s.strip()]


def _spec(answer_format: str | FormatSpec) -> FormatSpec:
    return parse_format(answer_format) if isinstance(answer_format, str) else answer_format


def candidates(sentence: str, answer_format: str | FormatSpec, *,
               plain: bool = False, names_by_kind: bool = False) -> list[str]:
    """Spans of ``answer_format`` in ``sentence``, left to right.

    With ``plain``, only the plainly written values of a format that has them (see
    :data:`PLAIN_WRITTEN`): spelled numbers ("six weeks") and lowercase role phrases. With
    ``names_by_kind`` (:class:`Thread`), a role holds a role noun and a system none.
    """
    fmt = _spec(answer_format)
    if fmt.kind == "choice":
        return stated_options(sentence, fmt.options)
    if fmt.name == "system":
        names = _names(sentence)
        return [n for n in names if not _names_role(n)] if names_by_kind else names
    if fmt.name == "role":
        if plain:
            return [s.text for s in named_roles(sentence)]
        names = _names(sentence)
        return [n for n in names if _names_role(n)] if names_by_kind else names
    pattern = fmt.span_pattern()
    if pattern is None:
        return []
    if fmt.name == "count":
        taken = [m.span() for f in _NOT_A_COUNT for m in PATTERNS[f].finditer(sentence)]
        found = [m.group(0) for m in pattern.finditer(sentence)
                 if not any(a <= m.start() < b for a, b in taken)
                 and not _YEAR.match(m.group(0))
                 and (m.group(0)[0].isdigit() or _COUNTED.match(sentence, m.end()))]
    else:
        found = [m.group(0).strip() for m in pattern.finditer(sentence)]
    if fmt.name in PLAIN_WRITTEN:
        found = [c for c in found if c[0].isdigit() != plain]
    return found


def _names_role(name: str) -> bool:
    """Whether a capitalised phrase holds a role noun ("Chief Information Security
    Officer"); a rule's name ("Detection rule") or an opening verb ("Close") holds none."""
    return any(word.lower() in ROLE_NOUNS for word in name.split())


def _names(sentence: str) -> list[str]:
    """Capitalized phrases, without a leading stop word ("The", "All", ...)."""
    return [name for _, name in _named_spans(sentence)]


def _named_spans(sentence: str) -> list[tuple[int, str]]:
    names = []
    for match in PATTERNS["role"].finditer(sentence):
        words = match.group(0).split()
        while words and words[0].lower() in stop_words():
            words = words[1:]
        if words:
            name = " ".join(words)
            names.append((match.start() + match.group(0).index(words[0]), name))
    return names


def stated_options(sentence: str, options: tuple[str, ...]) -> list[str]:
    """The options ``sentence`` states and does not set aside, in order of mention."""
    found = []
    for option in options:
        for match in _option_pattern(option).finditer(sentence):
            if not _SET_ASIDE.search(sentence[: match.start()]):
                found.append((match.start(), option))
                break
    return [option for _, option in sorted(found)]


@lru_cache(maxsize=1024)
def _option_pattern(option: str) -> re.Pattern[str]:
    words = option.split()
    if len(words) > 1 and words[0].lower() in ("a", "an", "the"):
        words = words[1:]
    body = r"[\s-]+".join(re.escape(w) for w in words)
    return re.compile(rf"(?<![\w-]){body}(?![\w-])", re.IGNORECASE)


def _novelty(candidate: str, question_words: set[str], words: _Words) -> float:
    found = words(candidate)
    if not found:
        return 0.0
    return len(found - question_words) / len(found)


_Words = Callable[[str], set[str]]


def _words_for(fmt: FormatSpec, plain: bool) -> _Words:
    """How a reading compares words: with spelled numbers as digits wherever they can be
    values ("three" is a stop word, "3" is not). The marked reading of the original formats
    compares words as written, as it always has."""
    if plain or fmt.name not in MARKED_ONLY:
        return lambda text: content_words(digits_for_words(text))
    return content_words


def best_sentence(text: str, question: str, answer_format: str | FormatSpec, *,
                  plain: bool = False, thread: Thread = SINGLE_QUESTION) -> str | None:
    """The sentence sharing most content words with the question that can hold an answer
    (with ``plain``: a plainly written one, in a sentence sharing at least one word; in a
    conversation, :class:`Thread`'s rules)."""
    fmt = _spec(answer_format)
    words = _words_for(fmt, plain)
    qwords = words(question)
    cwords = words(thread.context) if thread.context else set()
    known = qwords | cwords
    best: tuple[int, int, int] | None = None
    chosen = None
    for position, sentence in enumerate(sentences(text)):
        found = candidates(sentence, fmt, plain=plain, names_by_kind=thread.names_by_kind)
        if fmt.name != "yes_no" and not _useful(found, known, fmt, words, thread.said):
            continue
        shared = words(sentence)
        score = (len(shared & qwords), len(shared & cwords), -position)
        if plain and not shared & known:
            continue
        if best is None or score > best:
            best, chosen = score, sentence
    return chosen


def _useful(found: list[str], qwords: set[str], fmt: FormatSpec, words: _Words,
            said: tuple[str, ...] = ()) -> list[str]:
    if fmt.kind == "choice":
        return found  # the question may name every option
    return [c for c in found if _novelty(c, qwords, words) > 0 and not _stated(c, said)]


def _stated(candidate: str, said: tuple[str, ...]) -> bool:
    """Whether ``candidate`` occurs, as a whole, in one of the replies ``said``."""
    if not said:
        return False
    pattern = _whole(candidate.lower())
    return any(pattern.search(reply.lower()) for reply in said)


@lru_cache(maxsize=4096)
def _whole(value: str) -> re.Pattern[str]:
    """``value`` as a whole (no word character or dot before it, no word character after):
    compiled once, since every sentence of every document asks for its candidates."""
    return re.compile(r"(?<![\w.])" + re.escape(value) + r"(?!\w)")


def extract_value(text: str, question: str, answer_format: str | FormatSpec, *,
                  thread: Thread = SINGLE_QUESTION) -> str | None:
    """The value ``text`` states in answer to ``question``, or None when it states none.

    For a format with plainly written values (:data:`PLAIN_WRITTEN`) the document is read
    for a marked value first, and for a plain one when it states no marked value, or when
    the only "title" it found is a capitalised word opening a sentence ("Staff who need
    ...", "Requests are ...") that names no role. A turn of a conversation is read with
    its ``thread`` (:class:`Thread`).
    """
    fmt = _spec(answer_format)
    if thread.said:
        value = _extract(text, question, fmt, thread)
        if value is not None:
            return value
        thread = replace(thread, said=())
    return _extract(text, question, fmt, thread)


def _extract(text: str, question: str, fmt: FormatSpec, thread: Thread) -> str | None:
    marked = _read(text, question, fmt, plain=False, thread=thread)
    if fmt.name in PLAIN_WRITTEN and (marked is None or _opening_word(fmt, *marked)):
        plain = _read(text, question, fmt, plain=True, thread=thread)
        if plain is not None:
            return plain[1]
    return marked[1] if marked is not None else None


def _opening_word(fmt: FormatSpec, sentence: str, value: str) -> bool:
    return fmt.name == "role" and sentence.startswith(value) and not _names_role(value)


def _read(text: str, question: str, fmt: FormatSpec, *, plain: bool,
          thread: Thread = SINGLE_QUESTION) -> tuple[str, str] | None:
    """(sentence, value) of one reading, or None."""
    sentence = best_sentence(text, question, fmt, plain=plain, thread=thread)
    if sentence is None:
        return None
    if fmt.name == "yes_no":
        return sentence, "no" if NEGATION.search(sentence) else "yes"
    words = _words_for(fmt, plain)
    known = words(question) | (words(thread.context) if thread.context else set())
    found = _useful(candidates(sentence, fmt, plain=plain, names_by_kind=thread.names_by_kind),
                    known, fmt, words, thread.said)
    if not found:
        return None
    if fmt.kind == "choice":
        return sentence, found[0]

    def preference(c: str) -> tuple[float, bool, int]:
        # A capital at the start of a sentence is weak evidence of a name.
        return (_novelty(c, known, words), not sentence.startswith(c), -found.index(c))

    return sentence, max(found, key=preference)
