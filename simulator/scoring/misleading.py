"""Scoring under misleading evidence (RAG-Stress): was the designated value adopted, and did
intact evidence reach the agent at all?

Two facts the strict scorer cannot see from the trace alone, because a tampered document
keeps its id, metadata and citation-worthiness:

- ``misled``: the answer normalises like the task's designated incorrect value
  (:func:`simulator.answers.foil.designated_incorrect`, the value the fault wrote into the
  document). None when the task has no such value (outside the protocol).
- answerability: :func:`simulator.scoring.metrics.answerable` asks that the required
  current documents came back; here they came back *edited*, so the intact evidence did not
  reach the agent and the record is not answerable: the only safe outcome is a structured
  non-answer (what ``evidence_integrity`` gives). The served text is compared with the
  registry's, so an edit that happened not to change the text (no span found) leaves the
  record answerable.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from simulator.answers.foil import designated_incorrect, foil_key
from simulator.answers.normalize import matches_any
from simulator.corpus.model import Labels
from simulator.scoring.metrics import safe_resolution
from simulator.scoring.outcome import Outcome


def tampered(labels: Labels, served: Mapping[str, str], registered: Mapping[str, str]) -> bool:
    """Some required document was served with other text than the registry holds."""
    return any(d in served and d in registered and served[d] != registered[d]
               for d in labels.required_doc_ids)


def misleading_outcome(record: Outcome, labels: Labels, *, seed: int,
                       served: Mapping[str, str], registered: Mapping[str, str]
                       ) -> dict[str, Any]:
    """The fields of ``record`` that misleading evidence changes: ``misled``, and
    ``answerable`` / ``safe_resolution`` when the required evidence came back edited."""
    answer: str | None = getattr(record, "answer", None)
    foil = designated_incorrect(foil_key(seed, labels.task_id), labels.answer_format,
                                labels.accepted_answers, labels.superseded_answers)
    update: dict[str, Any] = {
        "misled": None if foil is None else (
            not record.abstained and matches_any(answer, (foil,), labels.answer_format)),
    }
    if tampered(labels, served, registered):
        update["answerable"] = False
        update["safe_resolution"] = (safe_resolution(False, record.S, record.abstained)
                                     and not record.provider_error and not record.reader_error)
    return update
