"""Scoring under misleading evidence (RAG-Stress): was the designated value adopted?

A tampered document keeps its id, metadata and citation-worthiness, so the strict scorer
sees a wrong answer like any other. ``misled`` says which wrong answer: the task's
designated incorrect value (:func:`simulator.answers.foil.designated_incorrect`, the value
the fault wrote into the document). None when the task has no such value, or when its
document states no span the fault could edit (both outside the protocol: nothing was
served edited). That the edited record is not answerable (the intact evidence never reached the
agent) is the one answerability rule's business: :func:`simulator.scoring.metrics.answerable`
with the documents :func:`~simulator.scoring.metrics.tampered_docs` finds.
"""

from __future__ import annotations

from simulator.answers.foil import designated_incorrect, edited_text, foil_key
from simulator.answers.normalize import matches_any
from simulator.corpus.model import Labels
from simulator.scoring.outcome import Outcome


def misled(record: Outcome, labels: Labels, *, seed: int,
           registered_text: str | None = None) -> bool | None:
    """Whether ``record``'s answer is the designated incorrect value of its task (drawn with
    ``seed``); None when the task has none, or when ``registered_text`` (the current
    document as published) has no assertion the fault could edit."""
    foil = designated_incorrect(foil_key(seed, labels.task_id), labels.answer_format,
                                labels.accepted_answers, labels.superseded_answers)
    if foil is None:
        return None
    if registered_text is not None and edited_text(
            registered_text, labels.answer_format, labels.accepted_answers, foil, "end") is None:
        return None
    answer: str | None = getattr(record, "answer", None)
    return not record.abstained and matches_any(answer, (foil,), labels.answer_format)
