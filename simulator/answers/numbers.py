"""Numbers as people write them: digits or words ("three", "forty-five", "two hundred").

One pattern finds a number either way, and :func:`digits_for_words` rewrites the spelled ones
as digits, so "six weeks" and "6 weeks" normalise alike. Words cover 1 to 999, the range
policy prose spells out; larger numbers are written in digits in practice, and "zero" is
left alone (it is rarely a count: "zero tolerance", "below zero").
"""

from __future__ import annotations

import re

_ONES = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_TEENS = ("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
          "seventeen", "eighteen", "nineteen")
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")

VALUES: dict[str, int] = {
    **{w: i for i, w in enumerate(_ONES)},
    **{w: 10 + i for i, w in enumerate(_TEENS)},
    **{w: 20 + 10 * i for i, w in enumerate(_TENS)},
}

_UNIT = "|".join(_ONES[1:])
_BELOW_100 = rf"(?:(?:{'|'.join(_TENS)})(?:[-\s](?:{_UNIT}))?|{'|'.join(_TEENS)}|{_UNIT})"
WORDS = (rf"(?i:\b(?:(?:{_UNIT}|a)\s+hundred(?:\s+(?:and\s+)?{_BELOW_100})?"
         rf"|{_BELOW_100})\b)")
"""A spelled number, case-insensitive, as a regex fragment without groups."""

DIGITS = r"\d+(?:,\d{3})*(?:\.\d+)?"
NUMBER = rf"(?:{DIGITS}|{WORDS})"
"""A number in digits or in words."""

_WORDS = re.compile(WORDS)
_TOKEN = re.compile(r"[a-z]+")


def word_value(text: str) -> int:
    """The value of one spelled number matched by :data:`WORDS` ("forty-five" -> 45)."""
    total, current = 0, 0
    for token in _TOKEN.findall(text.lower()):
        if token == "hundred":
            total += max(current, 1) * 100
            current = 0
        elif token in VALUES:
            current += VALUES[token]
    return total + current


def digits_for_words(text: str) -> str:
    """``text`` with every spelled number written in digits."""
    return _WORDS.sub(lambda m: str(word_value(m.group(0))), text)
