"""Why each score of a record came out as it did: one line per score, for a person.

The scores themselves are decided once, in simulator/scoring/; this module only explains a
finished record's scores from the same inputs (the answer, the trace, the labels), so a
reason can never disagree with its score: each line starts from the score it explains.
"""

from __future__ import annotations

from typing import Any

from simulator.agent.trace import Trace
from simulator.answers.normalize import matches_any
from simulator.answers.schema import AgentAnswer
from simulator.corpus.model import Labels

_LAYER_WHY = {
    "provider": "the provider failed after every retry: no answer to score",
    "agent": "the agent under test broke (raised, looped, timed out or called no tool)",
    "reader": "the answer is wrong or unreadable although the evidence allowed it",
    "completeness": "a search came back incomplete (missing output or timed-out shards)",
    "contract": "a tool result did not satisfy its schema after the contract step",
    "authorization": "the caller was denied the documents it needed",
    "session": "a search answered from another session's state",
    "freshness": "the index served predates the current version: it never came back",
    "retrieval": "the required document was not retrieved",
    "abstained": "the agent gave a structured non-answer where an answer was possible",
    "integrity": "the answer was read from a document served with edited text",
    "metadata": "the superseded value, cited from a document whose metadata called it current",
    "evidence": "the superseded value, read from a document honestly marked superseded",
}


def check(ok: bool, why: str) -> dict[str, Any]:
    return {"ok": ok, "why": why}


def verdict(record: Any, answer: AgentAnswer, trace: Trace, labels: Labels) -> dict[str, Any]:
    """The breakdown of ``record``'s scores (a :class:`~simulator.runner.record.RunRecord`)
    with a reason for each, beside the expected answer and the required documents."""
    retrieved = trace.retrieved_doc_ids
    missing = [d for d in labels.required_doc_ids if d not in retrieved]
    fmt = labels.answer_format
    if record.E:
        e = f"{answer.answer!r} matches the expected {labels.expected_answer!r}"
    elif answer.answer is None:
        e = "no value: " + ("abstained" if answer.abstained else "no answer") + \
            (f" ({answer.reason})" if answer.reason else "")
    elif matches_any(answer.answer, labels.superseded_answers, fmt):
        e = f"{answer.answer!r} is the superseded value; expected {labels.expected_answer!r}"
    else:
        e = f"{answer.answer!r} is not the expected {labels.expected_answer!r}"
    r = ("every required document came back from a schema-valid call" if record.R else
         f"required {', '.join(missing)} not retrieved by a schema-valid call")
    if record.G:
        g = "cited " + ", ".join(answer.citations) + ", all retrieved"
    elif not answer.citations:
        g = "no citation"
    else:
        stray = [c for c in answer.citations if c not in retrieved]
        g = ("cited " + ", ".join(stray) + ", never retrieved") if stray else \
            "citations not accepted"
    bad = [c for c in trace.tool_calls if not c.valid]
    v = ("every tool call satisfied its schema" if record.V else "; ".join(
        f"search {c.attempt}: {c.status}" + (f" ({c.errors[0]})" if c.errors else "")
        for c in bad[:3]))
    failed = [name for name in ("E", "R", "G", "V") if not getattr(record, name)]
    if record.S:
        s = "E, R, G and V all hold"
    elif record.agent_error or record.provider_error:
        s = "no usable answer: " + ("agent error" if record.agent_error else "provider error")
    else:
        s = "fails on " + ", ".join(failed)
    if record.answerable:
        safe = ("answerable, and answered correctly" if record.safe_resolution else
                "answerable (the intact required evidence reached the agent): a correct "
                "answer was needed")
    else:
        safe = ("not answerable, and the agent gave a structured non-answer"
                if record.safe_resolution else
                "not answerable (the intact required evidence never reached the agent): a "
                "structured non-answer was needed" + (f", got {answer.answer!r}"
                                                       if answer.answer else ""))
    layer = record.failure_layer
    return {
        "E": check(record.E, e), "R": check(record.R, r), "G": check(record.G, g),
        "V": check(record.V, v), "S": check(record.S, s),
        "safe_resolution": check(record.safe_resolution, safe),
        "answerable": record.answerable, "failure_layer": layer,
        "failure_why": _LAYER_WHY.get(layer, layer) if layer is not None else None,
        "expected_answer": labels.expected_answer,
        "accepted_answers": list(labels.accepted_answers),
        "superseded_answers": list(labels.superseded_answers),
        "required_doc_ids": list(labels.required_doc_ids),
    }
