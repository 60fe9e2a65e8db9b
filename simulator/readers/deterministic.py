"""The embedded default reader: extractive, offline, no model calls, label-free.

It trusts metadata the way a simple production pipeline does: it takes the topic of the
best-ranked evidence (documents sharing its title are versions of one policy), prefers the
version marked current, then the newest effective year, and reads the value from that
document's prose; other evidence is a fallback in retrieval order. That trust is exactly
what stale and corrupted metadata exploit, which is the point of the scenarios.
"""

from __future__ import annotations

from simulator.answers.extract import extract_value
from simulator.readers.base import (
    AgentAnswer,
    Evidence,
    ReaderInput,
    ReaderResult,
    readers,
    unknown_answer,
)

TEMPLATE_VERSION = "deterministic-extractive-1"


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
        for doc in _validity_order(item.evidence):
            value = extract_value(doc.text, item.question, item.answer_format)
            if value is not None:
                answer = AgentAnswer(answer=value, citations=(doc.doc_id,))
                return ReaderResult(answer=answer, prompt_hash=prompt_hash)
        reason = "no evidence" if not item.evidence else "evidence states no such value"
        return ReaderResult(answer=unknown_answer(reason), prompt_hash=prompt_hash)


@readers.register("deterministic")
def deterministic_reader(model: str = "deterministic") -> DeterministicReader:
    return DeterministicReader()
