"""The chat reader's prompt: versioned, label-free, and the same for every provider.

The model sees the question, the answer format, the evidence that survived the contract
and policy steps (prose plus allowlisted metadata: doc_id, title, status, effective_year,
version), any notes the payload carried, and instructions to answer with citations or
abstain. It never sees a field that states the answer outside the prose, nor any label.

``TEMPLATE_VERSION`` carries a fingerprint of the template text, so editing the wording
changes every prompt hash (and so every call-cache key) even if nobody bumps the number.
"""

from __future__ import annotations

import hashlib
import json

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from simulator.readers.base import Evidence, ReaderInput

SYSTEM = """\
You answer questions about company policies for an internal assistant.
Rules:
- Use only the evidence documents given with the question; never outside knowledge.
- When documents disagree, rely on the current version with the most recent effective year.
- Cite the doc_id of every document your answer relies on, and no other.
- If the evidence does not answer the question, or you cannot tell which document applies,
  abstain: "abstain" true, "answer" null, "citations" [], and say why in "reason".
- Give the answer as a short value in the requested answer format, not a sentence.
- Say whether the evidence contradicts itself (two versions of one policy that both claim to
  apply with different values, or a note disputing a document) in "conflict": "noticed"
  true or false; "resolution" "resolved" if you chose one and answered, "clarify" if you
  abstain to ask which applies, else "none"; "note" names the sources, or null.
Reply with one JSON object and nothing else, with exactly these keys:
{"answer": string or null, "citations": [doc_id, ...], "abstain": true or false, \
"reason": string or null, "conflict": {"noticed": true or false, \
"resolution": "clarify" or "resolved" or "none", "note": string or null}}"""

EVIDENCE_FIELDS = ("doc_id", "title", "status", "effective_year", "version")
"""Metadata the model may see. ``domain`` and anything else stay out."""

_USER = """\
Question: {question}
Answer format: {answer_format}

{evidence}{notes}{instructions}"""

TEMPLATE_NAME = "chat-answer-1"
TEMPLATE_VERSION = (TEMPLATE_NAME + "+" + hashlib.sha256(
    json.dumps([SYSTEM, _USER, EVIDENCE_FIELDS]).encode()).hexdigest()[:8])


def render_document(doc: Evidence) -> str:
    """``<document doc_id="..." ...>`` prose ``</document>``; values are JSON-quoted."""
    attrs = " ".join(f"{name}={json.dumps(getattr(doc, name))}" for name in EVIDENCE_FIELDS
                     if getattr(doc, name) is not None)
    return f"<document {attrs}>\n{doc.text.strip()}\n</document>"


def render_user(item: ReaderInput) -> str:
    if item.evidence:
        docs = "\n".join(render_document(d) for d in item.evidence)
        evidence = f"Evidence ({len(item.evidence)} documents):\n{docs}"
    else:
        evidence = "Evidence: no documents were returned."
    notes = "".join(f"\n- {note}" for note in item.notes)
    return _USER.format(
        question=item.question.strip(), answer_format=item.answer_format, evidence=evidence,
        notes=f"\n\nNotes from the search tool:{notes}" if notes else "",
        instructions=f"\n\nAdditional instructions: {item.instructions.strip()}"
        if item.instructions.strip() else "",
    )


def render_messages(item: ReaderInput) -> list[BaseMessage]:
    return [SystemMessage(SYSTEM), HumanMessage(render_user(item))]
