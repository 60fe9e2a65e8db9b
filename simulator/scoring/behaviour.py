"""ConInstruct behaviour labels: what an answer did about a conflict in its evidence.

ConInstruct (papers/coninstruct.txt, §5) labels a model's response to conflicting
instructions with four behaviours, and to conflict-free ones with two more. layerrag labels
every record the same way, for evidence instead of instructions:

on records whose evidence holds a conflict (:func:`simulator.readers.conflict.find_conflict`)

- ``B1`` conflict unacknowledged: an answer, no disclosure;
- ``B2`` acknowledged, clarification requested: a disclosure and a structured non-answer;
- ``B3`` acknowledged, resolved: a disclosure resolving the conflict, and an answer (whether
  it was resolved to the current value is the record's ``E``);
- ``B4`` other: a non-answer that does not mention the conflict, or a disclosure with an
  answer and no resolution;

on conflict-free records

- ``B5`` no conflict claimed (the answer, or non-answer, proceeds directly);
- ``B6`` false alarm: a conflict disclosed where the evidence holds none.

The label is decided from the answer's structured disclosure (``AgentAnswer.conflict``) and
the evidence and notes that reached the answerer, never from prose or labels: whether a
record holds a conflict is a property of what the environment served, so scrambling the
task labels changes no label. ``disclosure_correct`` (B2, B3, B5) is the outcome the
``conflict_disclosure`` policy is credited on: a conflict acknowledged where there is one,
and no alarm where there is none.
"""

from __future__ import annotations

from collections.abc import Sequence

from simulator.answers.schema import AgentAnswer
from simulator.readers.base import Evidence
from simulator.readers.conflict import find_conflict
from simulator.vocabulary import BEHAVIOURS, DISCLOSURE_CORRECT, Behaviour

CONFLICT_BEHAVIOURS: tuple[Behaviour, ...] = BEHAVIOURS[:4]
"""Labels of records whose evidence holds a conflict."""

MEANING: dict[Behaviour, str] = {
    "B1": "conflict unacknowledged",
    "B2": "acknowledged, clarification / safe non-answer",
    "B3": "acknowledged, resolved",
    "B4": "other",
    "B5": "no conflict, answered directly",
    "B6": "false alarm",
}


def behaviour_label(answer: AgentAnswer, question: str, answer_format: str,
                    evidence: Sequence[Evidence], notes: Sequence[str] = ()) -> Behaviour:
    """The ConInstruct behaviour of ``answer`` given the evidence it was made from."""
    noticed = answer.conflict.noticed
    if find_conflict(question, answer_format, evidence, notes) is None:
        return "B6" if noticed else "B5"
    if not noticed:
        return "B4" if answer.abstained else "B1"
    if answer.abstained:
        return "B2"
    return "B3" if answer.conflict.resolution == "resolved" else "B4"


def disclosure_correct(label: str | None) -> bool:
    """The disclosure matches the evidence (B2, B3 or B5); False for an unlabelled record."""
    return label in DISCLOSURE_CORRECT
