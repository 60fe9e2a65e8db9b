"""Answer normalization for exact match: case, spacing, articles, number punctuation."""

from __future__ import annotations

import re

_SPACE = re.compile(r"\s+")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")


def normalize_answer(text: str) -> str:
    """``"The  $1,500."`` and ``"$1500"`` normalize alike; words are otherwise kept."""
    out = text.strip().lower()
    out = _THOUSANDS.sub("", out)
    out = re.sub(r"\s*percent\b", "%", out)
    out = re.sub(r"\s+%", "%", out)
    out = re.sub(r"([$€£])\s+", r"\1", out)
    out = re.sub(r"[\"'`“”‘’()]", "", out)
    out = out.strip(" .,;:!?")
    out = re.sub(r"^(?:the|a|an)\s+", "", out)
    return _SPACE.sub(" ", out)


def matches_any(answer: str | None, accepted: tuple[str, ...] | list[str]) -> bool:
    if not answer:
        return False
    norm = normalize_answer(answer)
    return any(norm == normalize_answer(a) for a in accepted)
