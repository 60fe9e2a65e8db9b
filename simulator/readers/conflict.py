"""Conflicts read from the evidence itself: label-free, the same rule for reader and scorer.

A conflict is two sources that both claim to govern and say different things:

- two versions of one policy (documents sharing a title) that both present themselves as in
  force (status ``current``, or no status at all) and state different values for the
  question; or
- a note from the search tool that makes a claim about a returned document (it names its
  title), such as "this version remains the governing text".

A superseded version returned beside its current one is *not* a conflict: its metadata says
it no longer applies, which is ordinary version history (the clean scenario returns both
versions of a policy for most questions). Treating it as one is exactly the over-caution
ConInstruct's guiding prompt induces (Behaviour 6), which :func:`versions_disagree` models.

The deterministic reader discloses what :func:`find_conflict` finds, and the scorer's
behaviour labeller (simulator/scoring/behaviour.py) uses the same function to decide which
records hold a conflict, so "the evidence holds a conflict" is declared once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from simulator.answers.extract import extract_value
from simulator.answers.normalize import normalize_answer
from simulator.readers.base import Evidence

GUIDING_PROMPT = (
    "Before answering, check whether the evidence documents or notes contradict each other "
    "(two versions of one policy stating different values, or a note disputing a document). "
    "If they do, do not pick one silently: say that there is a conflict, name the sources "
    "that disagree, and ask for clarification instead of answering (abstain, with the "
    "conflict disclosed). If there is no conflict, answer directly.")
"""ConInstruct's guiding prompt (papers/coninstruct.txt, Table 8 and §5.2), for evidence
rather than instructions: detect the conflict and resolve it with Behaviour 2 (acknowledge,
ask for clarification). The ``conflict_disclosure`` policy hands it to readers and agents;
the deterministic reader follows it when it is among its instructions."""


class EvidenceConflict(NamedTuple):
    """What disagrees: the documents involved and, when they are versions, their values."""

    title: str
    doc_ids: tuple[str, ...]
    values: tuple[str | None, ...]
    note: str | None = None
    """The tool note that disputes a document, when the conflict is a note."""

    def describe(self) -> str:
        """One sentence for a disclosure note."""
        if self.note is not None:
            return f"a search note disputes '{self.title}': {self.note}"
        stated = ", ".join(f"{d} says {v or 'no value'}"
                           for d, v in zip(self.doc_ids, self.values, strict=True))
        return f"versions of '{self.title}' disagree ({stated})"


def _in_force(doc: Evidence) -> bool:
    return doc.status in (None, "current")


def _disagreeing(question: str, answer_format: str, docs: Sequence[Evidence]
                 ) -> EvidenceConflict | None:
    by_title: dict[str, list[Evidence]] = {}
    for doc in docs:
        by_title.setdefault(doc.title, []).append(doc)
    for title, versions in by_title.items():
        if len(versions) < 2:
            continue
        values = tuple(extract_value(d.text, question, answer_format) for d in versions)
        stated = {normalize_answer(v, answer_format) if v is not None else None
                  for v in values}
        texts = {d.text.strip() for d in versions}
        if len(stated) > 1 or (stated == {None} and len(texts) > 1):
            return EvidenceConflict(title=title, doc_ids=tuple(d.doc_id for d in versions),
                                    values=values)
    return None


def find_conflict(question: str, answer_format: str, evidence: Sequence[Evidence],
                  notes: Sequence[str] = ()) -> EvidenceConflict | None:
    """The conflict the evidence holds, or None: in-force versions disagree, or a note
    disputes a returned document."""
    found = _disagreeing(question, answer_format, [d for d in evidence if _in_force(d)])
    if found is not None:
        return found
    for note in notes:
        for doc in evidence:
            if doc.title and doc.title in note:
                return EvidenceConflict(title=doc.title, doc_ids=(doc.doc_id,), values=(),
                                        note=note)
    return None


def versions_disagree(question: str, answer_format: str, evidence: Sequence[Evidence],
                      notes: Sequence[str] = ()) -> EvidenceConflict | None:
    """The cautious reading: any two versions of one policy that state different values,
    whatever their status, or a disputing note. It finds every real conflict, and also the
    ordinary version history of the clean scenario (a false alarm)."""
    return (_disagreeing(question, answer_format, evidence)
            or find_conflict(question, answer_format, evidence, notes))
