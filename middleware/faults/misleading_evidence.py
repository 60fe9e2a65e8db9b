"""misleading_evidence (integrity): the index serves the current document with one assertion
edited to support a designated incorrect value (RAG-Stress).

Mechanic: a tampered index copy. The search endpoint ranks and returns as usual; the hit of
the task's current document carries text in which the sentence stating the governed value
now states the task's designated incorrect value (:mod:`simulator.answers.foil`: same
answer format, never an accepted or superseded value, drawn per seed and task), moved to
``position`` (beginning, middle or end of the text). Ids, title, metadata, score and rank
are untouched: the evidence is well-formed, retrieved and citable, and says the wrong thing.
The live registry (``fetch_document``) is not tampered with, which is what an integrity check
compares against. A task without a designated incorrect value (a yes/no unit with both
polarities taken) is served unedited and stays outside the misleading rate.
"""

from __future__ import annotations

from middleware.faults.base import check_choices, fault
from middleware.types import FaultContext, FaultSteps, ToolCall, ToolResult
from simulator.answers.foil import POSITIONS, designated_incorrect, edited_text, foil_key


@fault(layer="integrity")
def misleading_evidence(position: str = "end") -> FaultSteps:
    """Serve the current document with its answer edited to a designated incorrect value."""
    where = check_choices("misleading_evidence", "position", position, POSITIONS)[0]

    def response(call: ToolCall, result: ToolResult, ctx: FaultContext) -> ToolResult:
        if not result or not isinstance(result.get("hits"), list):
            return result
        labels = ctx.require_labels("misleading_evidence")
        foil = designated_incorrect(foil_key(ctx.seed, labels.task_id), labels.answer_format,
                                    labels.accepted_answers, labels.superseded_answers)
        if foil is None:
            return result
        current = set(labels.required_doc_ids)
        hits = []
        for hit in result["hits"]:
            if isinstance(hit, dict) and hit.get("doc_id") in current \
                    and isinstance(hit.get("text"), str):
                text = edited_text(hit["text"], labels.answer_format, labels.accepted_answers,
                                   foil, where)  # type: ignore[arg-type]  # checked above
                hit = {**hit, "text": text} if text is not None else hit
            hits.append(hit)
        return {**result, "hits": hits}

    return FaultSteps(response=response)
