"""Answer formats: the shape of a governed value, as a spec declares it and a task states it.

Three kinds:

- **built in** (:data:`BUILTIN_FORMATS`): ``duration``, ``amount``, ``count``, ``percentage``,
  ``frequency``, ``time_of_day``, ``role``, ``system``, ``yes_no``;
- **choice**: one of a few options declared with the unit. The answer space is public, like
  a multiple-choice question; the reader picks the option the evidence supports;
- **declared**: a name, a regular expression and optional normalisation steps, declared in
  ``corpus.toml`` under ``[[formats]]``.

A task states its format as a *descriptor*, one line a reader (or a chat model) can read
without the spec: the bare name for a built-in format (so enterprise_v2's tasks and prompt
hashes are what they always were), ``choice (one of: a rotating draw | length of service)``,
``desk_code (pattern: [A-Z]{2}-\\d{3})`` or
``desk_code (normalise: ignore_spaces; pattern: [A-Z]{2} ?-\\d{3})``.
:func:`parse_format` reads one back; :meth:`FormatSpec.describe` writes it.

The loader checks every spec value against its format and the deterministic reader extracts
candidates with the same patterns: one definition, so a value the spec accepts is a value the
extractive reader can find.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, field_validator

from simulator.answers.numbers import DIGITS, NUMBER, WORDS
from simulator.answers.roles import is_role_value

_UNIT = r"(?:minute|hour|day|week|month|year)s?"
_CAP = r"[A-Z][A-Za-z0-9&'/+.-]*[A-Za-z0-9]|[A-Z]"
_LINK = r"(?:of|and|for|the|&|-|on)"
_NAME = rf"(?:{_CAP})(?:\s+(?:{_LINK}\s+)?(?:{_CAP}))*"

_EVERY_UNIT = (r"(?:(?:business\s+|working\s+|calendar\s+)?(?:minute|hour|day|week|fortnight|"
               r"month|quarter|year)|weekday|(?:mon|tues|wednes|thurs|fri|satur|sun)day)")
_ADVERB = (r"(?:hourly|daily|nightly|weekly|fortnightly|monthly|quarterly|annually|yearly|"
           r"semi-?annually|bi-?annually|bi-?weekly|bi-?monthly)")
_TIMES = rf"(?:once|twice|thrice|{NUMBER}\s+times)"
_MERIDIEM = r"(?:a\.m\.|p\.m\.|am\b|pm\b)"

PATTERNS: dict[str, re.Pattern[str]] = {
    "duration": re.compile(
        rf"\b{NUMBER}\s+(?:business\s+|calendar\s+|working\s+|consecutive\s+)?{_UNIT}\b"
    ),
    "amount": re.compile(rf"(?:[$€£]\s?{DIGITS}(?:\s?(?:million|thousand|k)\b)?)"),
    "percentage": re.compile(rf"\b{DIGITS}\s?(?:%|percent\b)"),
    "count": re.compile(rf"(?<![$€£\d.,])\b\d{{1,3}}\b(?![.,]?\d|\s?%|\s?percent)"
                        rf"|(?<![-\w]){WORDS}(?!\s?%|\s+percent|-|\s+of\b)"),
    "frequency": re.compile(
        rf"(?i:\b(?:{_TIMES}\s+(?:a|an|per|each|every)\s+{_EVERY_UNIT}"
        rf"|{_TIMES}\s+{_ADVERB}"
        rf"|every\s+(?:other\s+|{NUMBER}\s+)?{_EVERY_UNIT}s?"
        rf"|each\s+{_EVERY_UNIT}"
        rf"|{_ADVERB})\b)"
    ),
    "time_of_day": re.compile(
        rf"(?i:\b(?:(?:[01]?\d|2[0-3])(?:[:.][0-5]\d)?\s?{_MERIDIEM}"
        rf"|(?:[01]?\d|2[0-3]):[0-5]\d\b|noon\b|midday\b|midnight\b))"
    ),
    "role": re.compile(_NAME),
    "system": re.compile(_NAME),
}
"""Span patterns of the built-in formats. yes_no has none: its answer is the polarity of the
sentence that states it. ``role`` also takes lowercase role phrases
(:mod:`simulator.answers.roles`)."""

BUILTIN_FORMATS: tuple[str, ...] = (
    "duration", "amount", "count", "percentage", "role", "system", "yes_no", "frequency",
    "time_of_day",
)
CHOICE = "choice"
NUMERIC_FORMATS = frozenset({"duration", "count", "frequency"})
"""Formats whose values may spell their numbers ("three", "six weeks", "every two weeks")."""

NormaliseStep = Literal["ignore_spaces", "ignore_punctuation"]
NORMALISE_STEPS: tuple[str, ...] = NormaliseStep.__args__  # type: ignore[attr-defined]
"""What a declared format may add to the standard normalisation (case, articles, quotes,
spacing and spelled numbers, which every format gets)."""

NEGATION = re.compile(
    r"\b(?:not|no|never|cannot|can't|won't|isn't|aren't|prohibited|forbidden|disallowed|"
    r"barred|banned|may\s+not|must\s+not|neither|nor)\b",
    re.IGNORECASE,
)

YES_NO = ("yes", "no")

_NAME_RULE = re.compile(r"[a-z][a-z0-9_]*")
_DESCRIPTOR = re.compile(r"(?P<name>[a-z][a-z0-9_]*)(?: \((?P<body>.*)\))?", re.DOTALL)
_OPTIONS = "one of: "
_OPTION_SEP = " | "


class FormatSpec(BaseModel):
    """One answer format: built in, a choice between declared options, or declared by a spec."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    options: tuple[str, ...] = ()
    """The options of a ``choice``, as the spec writes them; empty for every other kind."""
    pattern: str | None = None
    """The regular expression of a declared format; None for the other kinds."""
    normalise: tuple[NormaliseStep, ...] = ()
    """Extra normalisation steps of a declared format, applied when scoring."""

    @field_validator("name")
    @classmethod
    def _lower_snake(cls, name: str) -> str:
        if not _NAME_RULE.fullmatch(name):
            raise ValueError(f"format name {name!r} must be lower_snake_case")
        return name

    @property
    def kind(self) -> Literal["builtin", "choice", "declared"]:
        if self.name == CHOICE:
            return "choice"
        return "builtin" if self.name in BUILTIN_FORMATS else "declared"

    def describe(self) -> str:
        """The descriptor a task carries (see the module docstring)."""
        if self.kind == "choice":
            return f"{self.name} ({_OPTIONS}{_OPTION_SEP.join(self.options)})"
        if self.kind == "builtin":
            return self.name
        steps = f"normalise: {', '.join(self.normalise)}; " if self.normalise else ""
        return f"{self.name} ({steps}pattern: {self.pattern})"

    def span_pattern(self) -> re.Pattern[str] | None:
        """What a value of this format looks like in prose; None for yes_no and choice."""
        if self.kind == "declared":
            return compiled(self.pattern or "")
        return PATTERNS.get(self.name)


@lru_cache(maxsize=256)
def compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


@lru_cache(maxsize=1024)
def parse_format(descriptor: str) -> FormatSpec:
    """The format a task's descriptor states; ValueError when it is not one."""
    found = _DESCRIPTOR.fullmatch(descriptor)
    if found is None:
        raise ValueError(f"not an answer format: {descriptor!r}")
    name, body = found.group("name"), found.group("body")
    if body is None:
        if name == CHOICE or name not in BUILTIN_FORMATS:
            raise ValueError(f"answer format {name!r} needs its options or pattern: "
                             f"{descriptor!r}")
        return FormatSpec(name=name)
    if name in BUILTIN_FORMATS:
        raise ValueError(f"built-in format {name!r} takes no parameters: {descriptor!r}")
    if name == CHOICE:
        if not body.startswith(_OPTIONS):
            raise ValueError(f"a choice lists its options as 'one of: a | b': {descriptor!r}")
        return FormatSpec(name=name, options=tuple(body[len(_OPTIONS):].split(_OPTION_SEP)))
    steps: tuple[str, ...] = ()
    if body.startswith("normalise: "):
        head, sep, body = body.partition("; ")
        steps = tuple(s.strip() for s in head[len("normalise: "):].split(","))
        if not sep or any(s not in NORMALISE_STEPS for s in steps):
            raise ValueError(f"unknown normalisation in {descriptor!r}; known: "
                             f"{', '.join(NORMALISE_STEPS)}")
    if not body.startswith("pattern: "):
        raise ValueError(f"a declared format states its pattern: {descriptor!r}")
    return FormatSpec(name=name, pattern=body[len("pattern: "):],
                      normalise=steps)  # type: ignore[arg-type]


def value_matches_format(value: str, answer_format: str | FormatSpec) -> bool:
    """True when ``value`` is, in full, one value of its format."""
    fmt = parse_format(answer_format) if isinstance(answer_format, str) else answer_format
    if fmt.name == "yes_no":
        return True
    if fmt.kind == "choice":
        return value in fmt.options
    if fmt.name == "role":  # a role-like phrase, not any capitalised name (roles.py)
        return is_role_value(value)
    pattern = fmt.span_pattern()
    return pattern is not None and pattern.fullmatch(value) is not None
