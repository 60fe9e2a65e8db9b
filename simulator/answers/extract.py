"""Label-free extraction of a value of a given format from policy prose.

The deterministic reader answers the way a careful extractive system would: pick the
sentence that best matches the question and holds a value of the requested format, then
pick, inside it, the candidate the question does not already mention. It never sees labels.
"""

from __future__ import annotations

import re

from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from simulator.answers.formats import NEGATION, PATTERNS

_SENTENCE = re.compile(r"(?<=[.!?;])\s+(?=[A-Z0-9$€£\"'(])")
_WORD = re.compile(r"[a-z0-9]+")
_YEAR = re.compile(r"^(?:19|20)\d\d$")


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def content_words(text: str) -> set[str]:
    """Lower-cased, stemmed words that are not stop words."""
    return {_stem(w) for w in _WORD.findall(text.lower()) if w not in ENGLISH_STOP_WORDS}


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s.strip()]


def candidates(sentence: str, answer_format: str) -> list[str]:
    """Spans of ``answer_format`` in ``sentence``, left to right."""
    if answer_format in ("role", "system"):
        return _names(sentence)
    found = [m.group(0).strip() for m in PATTERNS[answer_format].finditer(sentence)]
    if answer_format == "count":
        taken = [m.span() for f in ("duration", "amount", "percentage")
                 for m in PATTERNS[f].finditer(sentence)]
        found = [m.group(0) for m in PATTERNS["count"].finditer(sentence)
                 if not any(a <= m.start() < b for a, b in taken)
                 and not _YEAR.match(m.group(0))]
    return found


def _names(sentence: str) -> list[str]:
    """Capitalized phrases, without a leading stop word ("The", "All", ...)."""
    names = []
    for match in PATTERNS["role"].finditer(sentence):
        words = match.group(0).split()
        while words and words[0].lower() in ENGLISH_STOP_WORDS:
            words = words[1:]
        if words:
            names.append(" ".join(words))
    return names


def _novelty(candidate: str, question_words: set[str]) -> float:
    words = content_words(candidate)
    if not words:
        return 0.0
    return len(words - question_words) / len(words)


def best_sentence(text: str, question: str, answer_format: str) -> str | None:
    """The sentence sharing most content words with the question that can hold an answer."""
    qwords = content_words(question)
    best: tuple[int, int] | None = None
    chosen = None
    for position, sentence in enumerate(sentences(text)):
        if answer_format != "yes_no" and not _useful(candidates(sentence, answer_format), qwords):
            continue
        score = (len(content_words(sentence) & qwords), -position)
        if best is None or score > best:
            best, chosen = score, sentence
    return chosen


def _useful(found: list[str], qwords: set[str]) -> list[str]:
    return [c for c in found if _novelty(c, qwords) > 0]


def extract_value(text: str, question: str, answer_format: str) -> str | None:
    """The value ``text`` states in answer to ``question``, or None when it states none."""
    sentence = best_sentence(text, question, answer_format)
    if sentence is None:
        return None
    if answer_format == "yes_no":
        return "no" if NEGATION.search(sentence) else "yes"
    qwords = content_words(question)
    found = _useful(candidates(sentence, answer_format), qwords)
    if not found:
        return None

    def preference(c: str) -> tuple[float, bool, int]:
        # A capital at the start of a sentence is weak evidence of a name.
        return (_novelty(c, qwords), not sentence.startswith(c), -found.index(c))

    return max(found, key=preference)
