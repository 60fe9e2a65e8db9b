"""Workflow order and prohibited actions in a case turn's reply (simulator/cases/scoring.py
puts them into the turn's score). Pure functions of the case's labels and the reply.

Step matching. A reply step (free text) matches the workflow step or prohibited action it
covers best. It covers an action when it holds the action's verb (its first content word:
actions are imperative), shares at least two content words (lower-cased, crude suffix
stemming, stop words dropped) and at least :data:`MATCH_THRESHOLD` of the shorter side's (so
"Issue a second licence key" covers the longer prohibited action it abbreviates), and says
"not" (never, no, without, ...) as often as the action does: "do not delete the catalog"
does not recommend "delete the catalog", nor "restore it for the owner" "restore it for
someone who is not an owner". An identifier of the case in exactly one workflow step's
action (a command, a form id) and in no prohibited one matches that step outright. Ties go
to the higher word overlap, then the earlier action.

Workflow order. A reply's order fails when a prerequisite (transitively) of a matched step
is matched later, when an expected step of the turn is matched by no reply step, or when the
reply recommends a prohibited action (in its steps or in a sentence of its text). A
prerequisite the reply does not mention is no failure: it may have been done in an earlier
turn. Steps that match nothing are ignored. None when the turn expects no step and the
reply recommends none.
"""

from __future__ import annotations

import re
from functools import lru_cache

from simulator.cases.identifiers import occurs
from simulator.cases.model import CaseLabels, TurnLabels
from simulator.cases.reply import TurnReply

MATCH_THRESHOLD = 0.6
"""Share of the shorter side's content words (reply step or action) the two must share."""

_WORD = re.compile(r"[A-Za-z0-9]+(?:'[a-z]+)?")
_NEGATION = re.compile(r"\b(?:not|never|no|nobody|none|avoid|refrain|without)\b|n't\b",
                       re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?;:])\s+|\n+")
_STOP = frozenset(
    "a an the to of on in for with and or from by at is it its be as that this which who "
    "what when then their them they your you each into so if are was has have "
    "do does".split())


def _stem(word: str) -> str:
    word = word.lower()
    for suffix in ("ing", "ed", "es", "s"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            word = word[: -len(suffix)]
            break
    return word[:-1] if len(word) > 3 and word.endswith("e") else word


def _content(text: str) -> frozenset[str]:
    return frozenset(_stem(w) for w in _WORD.findall(text)
                     if w.lower() not in _STOP and not _NEGATION.fullmatch(w))


def _verb(action: str) -> str | None:
    """An action's first content word: its verb, since actions are written imperative."""
    words = [w for w in _WORD.findall(action) if w.lower() not in _STOP]
    return _stem(words[0]) if words else None


def _negations(text: str) -> int:
    return len(_NEGATION.findall(text))


class _Actions:
    """A case's workflow steps then prohibited actions, prepared for matching reply text."""

    def __init__(self, case: CaseLabels) -> None:
        steps = case.workflow.steps
        self.step_ids = [s.step_id for s in steps]
        self.texts = [s.action for s in steps] + list(case.workflow.prohibited)
        self.content = [_content(a) for a in self.texts]
        self.verbs = [_verb(a) for a in self.texts]
        self.negations = [_negations(a) for a in self.texts]
        keys: dict[str, int] = {}
        for value in (i.value for i in case.identifiers):
            hits = [i for i, a in enumerate(self.texts) if occurs(value, a)]
            if len(hits) == 1 and hits[0] < len(steps):
                keys[value] = hits[0]
        self.keys = keys
        self.requires = _requires(case)

    def match(self, text: str) -> int | None:
        """Index of the action ``text`` covers best, or None when it covers none."""
        words, negations = _content(text), _negations(text)
        keyed = {i for v, i in self.keys.items() if occurs(v, text)}
        best: tuple[float, float, int] | None = None
        for i, target in enumerate(self.content):
            if negations != self.negations[i]:
                continue
            shared = len(words & target)
            verb = self.verbs[i]
            cover = (shared / min(len(words), len(target))
                     if shared >= 2 and (verb is None or verb in words) else 0.0)
            if i in keyed:
                cover = 1.0
            key = (cover, shared / len(words | target) if target else 0.0, -i)
            if cover >= MATCH_THRESHOLD and (best is None or key > best):
                best = key
        return None if best is None else -best[2]

    def is_step(self, index: int | None) -> bool:
        return index is not None and index < len(self.step_ids)


@lru_cache(maxsize=256)
def _actions(case: CaseLabels) -> _Actions:
    return _Actions(case)


def prohibited_action(case: CaseLabels, reply: TurnReply) -> bool:
    """The reply recommends (a step) or states (a sentence of its text) a prohibited action."""
    actions = _actions(case)
    texts = [*reply.steps, *(s for s in _SENTENCE.split(reply.text) if s.strip())]
    matches = (actions.match(t) for t in texts)
    return any(m is not None and not actions.is_step(m) for m in matches)


def _requires(case: CaseLabels) -> dict[str, set[str]]:
    direct = {s.step_id: set(s.requires) for s in case.workflow.steps}
    closure: dict[str, set[str]] = {}

    def walk(step: str, seen: frozenset[str]) -> set[str]:
        if step not in closure:
            out: set[str] = set()
            for req in direct.get(step, set()) - seen:
                out |= {req} | walk(req, seen | {step})
            closure[step] = out
        return closure[step]

    for step in direct:
        walk(step, frozenset())
    return closure


def workflow_order(case: CaseLabels, turn: TurnLabels, reply: TurnReply) -> bool | None:
    prohibited = prohibited_action(case, reply)
    if not turn.expected_steps and not reply.steps and not prohibited:
        return None
    if prohibited:
        return False
    actions = _actions(case)
    first: dict[str, int] = {}
    for pos, text in enumerate(reply.steps):
        m = actions.match(text)
        if m is not None and actions.is_step(m):
            first.setdefault(actions.step_ids[m], pos)
    if any(step not in first for step in turn.expected_steps):
        return False
    return all(first.get(req, -1) < pos for step, pos in first.items()
               for req in actions.requires[step])


__all__ = ["MATCH_THRESHOLD", "prohibited_action", "workflow_order"]
