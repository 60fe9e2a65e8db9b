"""The embedded default reader: extractive, offline, no model calls, label-free.

It trusts metadata the way a simple production pipeline does: it takes the topic of the
best-ranked evidence (documents sharing its title are versions of one policy), prefers the
version marked current, then the newest effective year, and reads the value from that
document's prose; other evidence is a fallback in retrieval order. That trust is exactly
what stale and corrupted metadata exploit, which is the point of the scenarios.

In a conversation it reads the value for the turn's own message, the thread breaking ties,
prefers a value it has not already given, and holds a role or system name to its kind
(:class:`simulator.answers.extract.Thread`); it reads the versions of the best-ranked
article only (another article is another case's); and it declines, saying why, when the
article it read is the case's but does not answer the message (rule 6 of
simulator/answers/conversation.py: searched with the whole thread, any question about the
case finds the case's article). Its reply names the identifiers the thread named and
recommends the instructions of the article it cites (simulator/answers/instructions.py). A
single question keeps the original reading, so the paper's anchors do not move (holding
names to their kind there too would leave S unchanged and move GF on clean from 0.108 to
0.100).

Conflicts (simulator/readers/conflict.py) it reads from the evidence itself: when in-force
versions of a policy disagree or a search note disputes a document, it says so in the
answer's disclosure and resolves the conflict by validity (the newest effective year), which
is ConInstruct's Behaviour 3. Given the ``conflict_disclosure`` policy's guiding prompt among
its instructions, it follows it the way the paper finds guided models do: it reads any two
versions that state different values as a conflict, whatever their status, and asks for
clarification instead of answering (Behaviour 2, and Behaviour 6 where the "conflict" is only
version history).
"""

from __future__ import annotations

from simulator.answers.conversation import NOT_IN_KB, thread_identifiers, unanswered
from simulator.answers.extract import SINGLE_QUESTION, Thread, extract_value
from simulator.answers.instructions import instructions
from simulator.answers.schema import ConflictDisclosure
from simulator.readers.base import (
    AgentAnswer,
    Conversation,
    Evidence,
    ReaderInput,
    ReaderResult,
    readers,
    unknown_answer,
)
from simulator.readers.conflict import (
    GUIDING_PROMPT,
    EvidenceConflict,
    find_conflict,
    versions_disagree,
)

TEMPLATE_VERSION = "deterministic-extractive-2"
NO_EVIDENCE = "no evidence"
NO_VALUE = "evidence states no such value"


def _validity_order(evidence: tuple[Evidence, ...]) -> list[Evidence]:
    if not evidence:
        return []
    topic = [e for e in evidence if e.title == evidence[0].title]
    topic.sort(key=lambda e: (e.status != "current", -(e.effective_year or 0)))
    return topic + [e for e in evidence if e.title != evidence[0].title]


class DeterministicReader:
    """Pick evidence by validity metadata, then extract the value from its prose."""

    name = "deterministic"
    provider = "local"
    template_version = TEMPLATE_VERSION

    def read(self, item: ReaderInput) -> ReaderResult:
        prompt_hash = item.prompt_hash(self.template_version)
        guided = GUIDING_PROMPT in item.instructions
        detect = versions_disagree if guided else find_conflict
        conflict = detect(item.question, item.answer_format, item.evidence, item.notes)
        if conflict is not None and guided:
            note = f"Conflict: {conflict.describe()}; which applies?"
            disclosure = ConflictDisclosure(noticed=True, resolution="clarify", note=note)
            return ReaderResult(answer=unknown_answer(note, disclosure), prompt_hash=prompt_hash)
        if item.conversation is not None:
            answer = _turn_answer(item, item.conversation, conflict)
        else:
            answer = _answer(item, item.question, _validity_order(item.evidence),
                             SINGLE_QUESTION, conflict)
        return ReaderResult(answer=answer, prompt_hash=prompt_hash)


def _answer(item: ReaderInput, question: str, order: list[Evidence], thread: Thread,
            conflict: EvidenceConflict | None) -> AgentAnswer:
    """The value of the first document in ``order`` that states one, or a non-answer."""
    for doc in order:
        value = extract_value(doc.text, question, item.answer_format, thread=thread)
        if value is not None:
            disclosure = ConflictDisclosure()
            if conflict is not None:
                disclosure = ConflictDisclosure(
                    noticed=True, resolution="resolved",
                    note=f"Conflict: {conflict.describe()}; followed {doc.doc_id}, the "
                         "newest version in force.")
            return AgentAnswer(answer=value, citations=(doc.doc_id,), conflict=disclosure)
    return unknown_answer(NO_VALUE if item.evidence else NO_EVIDENCE, _noticed(conflict))


def _noticed(conflict: EvidenceConflict | None) -> ConflictDisclosure:
    return ConflictDisclosure(noticed=conflict is not None,
                              note=conflict.describe() if conflict else None)


def _turn_answer(item: ReaderInput, turn: Conversation, conflict: EvidenceConflict | None
                 ) -> AgentAnswer:
    """A turn of a conversation: the turn's message read in its thread, from the versions of
    the best-ranked article only (another article is another case's); declined, saying
    why, when the article does not answer the message (rule 6 of
    simulator/answers/conversation.py); with the reply's support fields: the identifiers
    the thread named (rule 3), and the instructions of the article it cites as its steps."""
    thread = Thread(context=" ".join(turn.user_messages), said=turn.replies,
                    names_by_kind=True)
    order = [e for e in _validity_order(item.evidence) if e.title == item.evidence[0].title
             ] if item.evidence else []
    answer = _answer(item, turn.message, order, thread, conflict)
    if answer.answer is not None:
        cited = next(e.text for e in order if e.doc_id == answer.citations[0])
        why = unanswered(turn.message, turn.user_messages, item.answer_format, answer.answer,
                         (cited,))
        answer = (unknown_answer(why, _noticed(conflict)) if why is not None
                  else answer.model_copy(update={"steps": instructions(cited)}))
    elif answer.reason in (NO_EVIDENCE, NO_VALUE):  # a support reply's wording
        answer = answer.model_copy(update={"reason": NOT_IN_KB})
    named = thread_identifiers(turn.user_messages, turn.message)
    return answer.model_copy(update={
        "identifiers": named, "answer_type": "abstain" if answer.abstained else None})


@readers.register("deterministic", builtin=True)
def deterministic_reader(model: str = "deterministic") -> DeterministicReader:
    return DeterministicReader()
