"""Scoring under misleading evidence (RAG-Stress): was the designated value adopted?

A tampered document keeps its id, metadata and citation-worthiness, so the strict scorer
sees a wrong answer like any other. ``misled`` says which wrong answer: the designated
incorrect value of the task's current document, computed by the very function the fault uses
(:func:`simulator.answers.foil.document_foil`) from the same public inputs: the task's question
and answer format, the document's text as registered, its older versions' texts (the
registry's lineage) and the record key. The scorer is the only side that knows, from the
labels, which document is the task's current one; the fault found it as the top-ranked hit
marked current. None when the document yields no foil (it states no value for the question,
or the format leaves no room) or states no span the fault could edit, and None when the
record's search results did not carry it edited (the fault edited another policy's hit, which
the retriever ranked above it, or no result came back): all outside the protocol, the task's
own evidence was not served edited. That the edited record is not answerable (the intact
evidence never reached the agent) is the one answerability rule's business:
:func:`simulator.scoring.metrics.answerable` with the documents
:func:`~simulator.scoring.metrics.tampered_docs` finds.
"""

from __future__ import annotations

from collections.abc import Sequence

from simulator.answers.foil import document_foil, edited_text, foil_key
from simulator.answers.normalize import matches_any
from simulator.corpus.model import Task
from simulator.scoring.outcome import Outcome


def misled(record: Outcome, task: Task, *, seed: int, registered_text: str,
           older_texts: Sequence[str] = (), served_edited: bool = True) -> bool | None:
    """Whether ``record``'s answer is the designated incorrect value of ``task``'s current
    document (``registered_text``, with its older versions ``older_texts``; drawn with
    ``seed``); None when that document yields no foil or no assertion the fault could edit,
    or when it was not served edited (``served_edited`` False: the fault, aiming without
    labels, edited another policy's hit, or nothing came back), so the protocol's object,
    the task's own evidence turned against it, was never in play."""
    if not served_edited:
        return None
    foil = document_foil(foil_key(seed, task.task_id), task.question, task.answer_format,
                         registered_text, older_texts)
    if foil is None or edited_text(registered_text, task.answer_format, (foil.stated,),
                                   foil.value, "end") is None:
        return None
    answer: str | None = getattr(record, "answer", None)
    return not record.abstained and matches_any(answer, (foil.value,), task.answer_format)
