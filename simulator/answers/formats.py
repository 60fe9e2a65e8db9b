"""Surface forms of each answer format.

The loader checks every spec value against its format, and the deterministic reader extracts
candidates with the same patterns: one definition, so a value the spec accepts is a value the
extractive reader can find.
"""

from __future__ import annotations

import re

_NUM = r"\d+(?:,\d{3})*(?:\.\d+)?"
_UNIT = r"(?:minute|hour|day|week|month|year)s?"
_CAP = r"[A-Z][A-Za-z0-9&'/+.-]*[A-Za-z0-9]|[A-Z]"
_LINK = r"(?:of|and|for|the|&|-|on)"

PATTERNS: dict[str, re.Pattern[str]] = {
    "duration": re.compile(
        rf"\b{_NUM}\s+(?:business\s+|calendar\s+|working\s+|consecutive\s+)?{_UNIT}\b"
    ),
    "amount": re.compile(rf"(?:[$€£]\s?{_NUM}(?:\s?(?:million|thousand|k)\b)?)"),
    "percentage": re.compile(rf"\b{_NUM}\s?(?:%|percent\b)"),
    "count": re.compile(r"(?<![$€£\d.,])\b\d{1,3}\b(?![.,]?\d|\s?%|\s?percent)"),
    "role": re.compile(rf"(?:{_CAP})(?:\s+(?:{_LINK}\s+)?(?:{_CAP}))*"),
    "system": re.compile(rf"(?:{_CAP})(?:\s+(?:{_LINK}\s+)?(?:{_CAP}))*"),
}
"""yes_no has no span pattern: its answer is the polarity of the sentence that states it."""

NEGATION = re.compile(
    r"\b(?:not|no|never|cannot|can't|won't|isn't|aren't|prohibited|forbidden|disallowed|"
    r"barred|banned|may\s+not|must\s+not|neither|nor)\b",
    re.IGNORECASE,
)

YES_NO = ("yes", "no")


def value_matches_format(value: str, answer_format: str) -> bool:
    """True when ``value`` is, in full, one span of its format."""
    if answer_format == "yes_no":
        return True
    return PATTERNS[answer_format].fullmatch(value) is not None
