"""Identifier exactness and corruption in a case turn's reply (simulator/cases/scoring.py
puts them into the turn's score). Pure functions of the case's labels and the reply.

Identifier exactness (the paper's identifier integrity). An expected identifier is present
when it occurs exactly (case-sensitive) as a whole token in a ``reply.identifiers`` item or
in ``reply.text``: ``11.2`` is not present in ``11.2.1``, nor ``CS-3041`` in ``CS-30418``.
A reply names a *corrupted* identifier when something shaped like one of the case's own
identifier kinds is not one of the case's values. Shapes come from the case's identifiers,
never from every number: an error code, ticket or asset id gives its run pattern
(``LIC-2207`` -> ``[A-Z]{2,8}-\\d{3,5}``, ``web-portal-07`` ->
``[a-z]{1,6}-[a-z]{3,9}-\\d{1,3}``; a value without digits, like ``REFUSED``, gives none);
a version gives any dotted number (``\\d+(\\.\\d+)+``, but not an amount or a
percentage); a file path makes every absolute path a candidate; a command makes any
``reply.identifiers`` item or backticked span that starts with its program name a candidate
(a command in plain text is checked by its tokens: ``web-portal-08`` in a ``certctl`` line
is caught, a changed sub-command is not). What the case's own labels say is never flagged:
its identifiers and what they contain (``c-7781`` in ``mailctl purge --campaign c-7781``),
the expected and accepted values and standalone questions of its turns (``2.9`` when a turn
asks for it, ``8.0`` when the user asks about it), its issue, escalation rule and workflow
steps, the directories above its paths, and a command of the case cut short after its
sub-command or a later argument (``dnsctl query`` of ``dnsctl query intranet.acme.local
--server 10.20.0.53``: incomplete, not altered). A turn's superseded (stale) value is not the
case's own: with a case shape it counts as corrupted too, though a value turn's strict
layer is reported first. So a digit-swapped code and another case's id of the same shape
both fail; a count like ``3`` is never a candidate, nor an id whose shape none of the case's
identifiers has. None when the turn expects no identifier and the reply names none.
"""

from __future__ import annotations

import re
from functools import lru_cache

from simulator.cases.model import CaseLabels, TurnLabels
from simulator.cases.reply import TurnReply

_SHAPED_KINDS = frozenset({"error_code", "ticket_id", "asset_id"})
_VERSION = r"(?<![$€£,])\d{1,4}(?:\.\d{1,4})+(?!\s?%)"
"""A dotted number; an amount (``$12.50``, ``1,234.50``) or a share (``99.9%``) is none."""
_LEFT = r"(?<![A-Za-z0-9_])(?<![A-Za-z0-9_][.\-])"
_RIGHT = r"(?![A-Za-z0-9_])(?![.\-][A-Za-z0-9_])"
_PATH = re.compile(r"(?<![A-Za-z0-9_.:/~-])/[A-Za-z0-9_.\-]+(?:/[A-Za-z0-9_.\-]+)+")
_BACKTICK = re.compile(r"`([^`\n]+)`")
_RUN = re.compile(r"[A-Z]+|[a-z]+|\d+|[^A-Za-z0-9]")


def _run_shape(value: str) -> str | None:
    if not any(ch.isdigit() for ch in value):
        return None
    parts = []
    for run in _RUN.findall(value):
        n = len(run)
        if run.isdigit():
            parts.append(rf"\d{{{max(1, n - 1)},{n + 1}}}")
        elif run.isupper():
            parts.append("[A-Z]{2,8}" if n >= 2 else "[A-Z]")
        elif run.islower():
            parts.append(f"[a-z]{{{max(1, n - 3)},{n + 3}}}")
        else:
            parts.append(re.escape(run))
    return "".join(parts)


class _Shapes:
    """What in a reply could be one of this case's identifiers, and what the case allows."""

    def __init__(self, case: CaseLabels) -> None:
        kinds = {i.kind for i in case.identifiers}
        shapes = {s for i in case.identifiers if i.kind in _SHAPED_KINDS
                  if (s := _run_shape(i.value))}
        if "version" in kinds:
            shapes.add(_VERSION)
        self.token = (re.compile(_LEFT + "(?:" + "|".join(sorted(shapes)) + ")" + _RIGHT)
                      if shapes else None)
        self.paths = "file_path" in kinds
        self.programs = {i.value.split()[0] for i in case.identifiers if i.kind == "command"}
        self.values = frozenset(i.value for i in case.identifiers)
        own = [*self.values, case.issue, case.workflow.escalation,
               *(s.action for s in case.workflow.steps)]
        own += [a for t in case.turns
                for a in (t.expected_answer or "", *t.accepted_answers, t.standalone_question)]
        allowed = set(self.values) | {a for a in own if a}
        for text in own:
            allowed.update(self._candidates(text, programs=False))
        for value in self.values:
            words = value.split()
            if words[0] in self.programs:  # a command cut short is incomplete, not altered
                allowed.update(" ".join(words[:k]) for k in range(2, len(words)))
            if value.startswith("/"):
                parts = value.split("/")
                allowed.update("/".join(parts[:k]) for k in range(2, len(parts)))
        self.allowed = frozenset(allowed)

    def _candidates(self, text: str, *, programs: bool) -> list[str]:
        out = [m.group(0) for m in self.token.finditer(text)] if self.token else []
        if self.paths:
            out += [m.group(0).rstrip(".-") for m in _PATH.finditer(text)]
        if programs and self.programs:
            spans = [m.group(1).strip() for m in _BACKTICK.finditer(text)]
            out += [s for s in spans if s.split() and s.split()[0] in self.programs]
        return out

    def named(self, reply: TurnReply) -> list[str]:
        """Every identifier-shaped thing the reply names, as written."""
        out: list[str] = []
        for item in reply.identifiers:
            if item in self.allowed or (item.split() and item.split()[0] in self.programs):
                out.append(item)
            else:
                out += self._candidates(item, programs=True)
        out += self._candidates(reply.text, programs=True)
        out += [v for v in self.values if occurs(v, reply.text)]
        return out


def occurs(value: str, text: str) -> bool:
    """Whether ``value`` stands in ``text`` as a whole token (``11.2`` not in ``11.2.1``)."""
    return value in text and _bounded(value).search(text) is not None


@lru_cache(maxsize=4096)
def _bounded(value: str) -> re.Pattern[str]:
    return re.compile(_LEFT + re.escape(value) + _RIGHT)


@lru_cache(maxsize=256)
def _shapes(case: CaseLabels) -> _Shapes:
    return _Shapes(case)


def corrupted_identifiers(case: CaseLabels, reply: TurnReply) -> tuple[str, ...]:
    """The identifier-shaped things a reply names that are not the case's own."""
    shapes = _shapes(case)
    return tuple(dict.fromkeys(n for n in shapes.named(reply) if n not in shapes.allowed))


def identifier_exactness(case: CaseLabels, turn: TurnLabels, reply: TurnReply) -> bool | None:
    shapes = _shapes(case)
    named = [n for n in shapes.named(reply) if n in shapes.values or n not in shapes.allowed]
    if not turn.expected_identifiers and not named:
        return None
    for value in turn.expected_identifiers:
        if not any(occurs(value, t) for t in (*reply.identifiers, reply.text)):
            return False
    return all(n in shapes.allowed for n in named)


__all__ = ["corrupted_identifiers", "identifier_exactness", "occurs"]
