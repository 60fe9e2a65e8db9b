"""Answer normalisation for exact match, per format, consistent with extraction.

Every format gets the standard rules: case, spacing, quotes, a leading article, number
punctuation, "percent" as "%", and spelled numbers as digits ("six weeks" == "6 weeks"). Two
built-in formats add a canonical form, because people write one value several ways:

- ``time_of_day``: 24-hour ``HH:MM`` ("9:30 pm" == "9.30 p.m." == "21:30"; "noon" == "12:00");
- ``frequency``: "every <unit>" or "<n> per <unit>" ("quarterly" == "every quarter" ==
  "once a quarter"; "twice a year" == "2 times per year" == "semi-annually").

A ``role`` also drops a leading possessive ("your line manager" == "the line manager").

Amounts of money (a currency sign, then a number) are written as their value: a ``k``,
``thousand`` or ``million`` multiplies it, and zeros after the decimal point go ("$25k" ==
"$25 thousand" == "$25,000"; "$50.00" == "$50"; "$1.5 million" == "$1,500,000"; "$49.90"
== "$49.9"). Cents that are not zero stay: "$49.99" is not "$50".

A declared format adds its own steps (``ignore_spaces``, ``ignore_punctuation``). The scorer
passes the task's format; without one, only the standard rules apply.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from simulator.answers.formats import PATTERNS, FormatSpec, parse_format
from simulator.answers.numbers import digits_for_words

_SPACE = re.compile(r"\s+")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")


def normalize_answer(text: str, answer_format: str | FormatSpec | None = None) -> str:
    """``"The  $1,500."`` and ``"$1500"`` normalise alike; so do "six weeks" and "6 weeks"."""
    fmt = parse_format(answer_format) if isinstance(answer_format, str) else answer_format
    out = text.strip().lower()
    if fmt is not None and fmt.name == "time_of_day":
        out = PATTERNS["time_of_day"].sub(lambda m: _clock(m.group(0)), out)
    out = digits_for_words(out)
    if fmt is not None and fmt.name == "frequency":
        out = _frequency(out)
    out = _THOUSANDS.sub("", out)
    out = _AMOUNT.sub(_amount, out)
    out = re.sub(r"\s*percent\b", "%", out)
    out = re.sub(r"\s+%", "%", out)
    out = re.sub(r"([$€£])\s+", r"\1", out)
    out = re.sub(r"[\"'`“”‘’()]", "", out)
    out = out.strip(" .,;:!?")
    out = re.sub(r"^(?:the|a|an)\s+", "", out)
    if fmt is not None and fmt.name == "role":
        out = re.sub(r"^(?:your|their|our|his|her|its)\s+", "", out)
    out = _SPACE.sub(" ", out)
    if fmt is not None:
        for step in fmt.normalise:
            out = re.sub(r"\s+", "", out) if step == "ignore_spaces" else re.sub(
                r"[^\w\s]", "", out)
    return out


_AMOUNT = re.compile(r"([$€£])\s?(\d+(?:\.\d+)?)(?:\s?(k|thousand|million|m)\b)?")
_MULTIPLIER = {"k": 1000, "thousand": 1000, "m": 1_000_000, "million": 1_000_000}


def _amount(found: re.Match[str]) -> str:
    """One amount of money as its sign and plain value (see the module docstring)."""
    value = Decimal(found.group(2)) * _MULTIPLIER.get(found.group(3) or "", 1)
    return f"{found.group(1)}{format(value.normalize(), 'f')}"


def matches_any(answer: str | None, accepted: Sequence[str],
                answer_format: str | FormatSpec | None = None) -> bool:
    """Whether ``answer`` normalises like one of ``accepted`` under ``answer_format``."""
    if not answer:
        return False
    norm = normalize_answer(answer, answer_format)
    return any(norm == normalize_answer(a, answer_format) for a in accepted)


_CLOCK = re.compile(r"(?P<h>\d{1,2})(?:[:.](?P<m>\d{2}))?\s?(?P<ampm>[ap])?")


def _clock(time: str) -> str:
    """One time of day as 24-hour ``HH:MM``."""
    if time in ("noon", "midday"):
        return "12:00"
    if time == "midnight":
        return "00:00"
    found = _CLOCK.match(time)
    if found is None:
        return time
    hour, minute = int(found.group("h")), int(found.group("m") or 0)
    if found.group("ampm") == "p" and hour < 12:
        hour += 12
    elif found.group("ampm") == "a" and hour == 12:
        hour = 0
    return f"{hour:02d}:{minute:02d}"


_ADVERBS = {
    "hourly": "every hour", "daily": "every day", "nightly": "every night",
    "weekly": "every week", "fortnightly": "every 2 weeks", "monthly": "every month",
    "quarterly": "every quarter", "annually": "every year", "yearly": "every year",
    "semiannually": "2 times every year", "biannually": "2 times every year",
    "biweekly": "every 2 weeks", "bimonthly": "every 2 months",
}
_ADVERB = re.compile(r"\b(semi-?annually|bi-?annually|bi-?weekly|bi-?monthly|"
                     + "|".join(a for a in _ADVERBS if not a.startswith(("semi", "bi")))
                     + r")\b")
_UNIT = r"(minute|hour|day|week|month|quarter|year|weekday)s\b"


def _frequency(text: str) -> str:
    """Frequencies as "every <unit>" or "<n> per <unit>" (numbers already in digits)."""
    for word, times in (("once", "1"), ("twice", "2"), ("thrice", "3")):
        text = re.sub(rf"\b{word}\b", f"{times} times", text)
    text = _ADVERB.sub(lambda m: _ADVERBS[m.group(1).replace("-", "")], text)
    text = re.sub(r"\bfortnights?\b", "2 weeks", text)
    text = re.sub(r"\b(?:each|every) other ", "every 2 ", text)
    text = re.sub(r"\beach\b", "every", text)
    text = re.sub(r"\b(\d+) times (?:a|an|per|every) ", r"\1 per ", text)
    text = re.sub(r"\b(?:1 per|every 1) ", "every ", text)
    return re.sub(rf"\b((?:every|per) (?:\d+ )?(?:business |working |calendar )?){_UNIT}",
                  r"\1\2", text)
