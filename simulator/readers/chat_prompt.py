"""The chat reader's prompt: versioned, label-free, and the same for every provider.

The model sees the question, the answer format, the evidence that survived the contract
and policy steps (prose plus allowlisted metadata: doc_id, title, status, effective_year,
version), any notes the payload carried, and instructions to answer with citations or
abstain. It never sees a field that states the answer outside the prose, nor any label.

A turn of a support conversation (the cases suite) is rendered with the conversation so
far before its question, and a system prompt that says how to ask and decline there and
asks for the reply's support keys (steps, identifiers, answer type): ``CASE_SYSTEM``,
``CASE_TEMPLATE_VERSION``.

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

CASE_SYSTEM = SYSTEM.split("\nReply with one JSON object")[0] + """
This is a support conversation: the question is the user's latest message; the earlier
turns, shown before it, are context.
- If neither the message nor the conversation says which error code, asset, ticket or
  version it is about, abstain: put one clarifying question in "reason" (ending with "?")
  and set "answer_type" to "clarify".
- If the documents do not answer the message, abstain with "answer_type" "abstain".
- Otherwise answer, with "answer_type" "diagnose" (what is wrong) or "instruct" (what to
  do); in "steps" the actions the documents say to take, in order (never one a document
  forbids), or [].
- In "identifiers" every error code, version, asset or ticket id, command and file path your
  reply refers to, copied exactly.
Reply with one JSON object and nothing else, with exactly these keys:
{"answer": string or null, "citations": [doc_id, ...], "abstain": true or false, \
"reason": string or null, "conflict": {"noticed": true or false, \
"resolution": "clarify" or "resolved" or "none", "note": string or null}, \
"steps": [string, ...], "identifiers": [string, ...], \
"answer_type": "diagnose" or "instruct" or "clarify" or "abstain"}"""
"""The system prompt of a turn of a support conversation (the cases suite): the single
question's rules, how to ask and decline in a conversation, and the reply's support keys."""

_EARLIER = """Conversation so far:
{turns}

"""
CASE_TEMPLATE_VERSION = (TEMPLATE_NAME + "-case+" + hashlib.sha256(
    json.dumps([CASE_SYSTEM, _EARLIER, _USER, EVIDENCE_FIELDS]).encode()).hexdigest()[:8])
"""The template of a conversation turn: its own fingerprint, so a single question's prompt
hashes (and call-cache keys) are untouched by it."""


def template_version(item: ReaderInput) -> str:
    """The template ``item`` is rendered with: a conversation turn's, or a question's."""
    return CASE_TEMPLATE_VERSION if item.conversation is not None else TEMPLATE_VERSION


def render_document(doc: Evidence) -> str:
    """``<document doc_id="..." ...>`` prose ``</document>``; values are JSON-quoted."""
    attrs = " ".join(f"{name}={json.dumps(getattr(doc, name))}" for name in EVIDENCE_FIELDS
                     if getattr(doc, name) is not None)
    return f"<document {attrs}>\n{doc.text.strip()}\n</document>"


def render_user(item: ReaderInput) -> str:
    """The user message: the question (in a conversation, the earlier exchanges and then the
    latest message), its format, the evidence, the notes and any instructions."""
    if item.conversation is not None:
        turns = "\n".join(f"User: {user.strip()}\nAssistant: {reply.strip()}"
                           for user, reply in item.conversation.history)
        body = _user(item, item.conversation.message)
        return _EARLIER.format(turns=turns) + body if turns else body
    return _user(item, item.question)


def _user(item: ReaderInput, question: str) -> str:
    if item.evidence:
        docs = "\n".join(render_document(d) for d in item.evidence)
        evidence = f"Evidence ({len(item.evidence)} documents):\n{docs}"
    else:
        evidence = "Evidence: no documents were returned."
    notes = "".join(f"\n- {note}" for note in item.notes)
    return _USER.format(
        question=question.strip(), answer_format=item.answer_format, evidence=evidence,
        notes=f"\n\nNotes from the search tool:{notes}" if notes else "",
        instructions=f"\n\nAdditional instructions: {item.instructions.strip()}"
        if item.instructions.strip() else "",
    )


def render_messages(item: ReaderInput) -> list[BaseMessage]:
    system = CASE_SYSTEM if item.conversation is not None else SYSTEM
    return [SystemMessage(system), HumanMessage(render_user(item))]
