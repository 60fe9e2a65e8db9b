"""The LLM judge's prompt: one deterministic prompt per turn, restricted to the paper's inputs.

arXiv 2602.20379 §4 constrains the judge to the case subject and description, the
conversation history, the current query, the retrieved chunks and the answer (an optional
reference answer is left out here: the reference judge holds the labels, and calibration
compares against it). The prompt carries no label, no expected answer and no score of the
strict scorer, so what the LLM judge says is its own reading of those inputs.

A single-turn enterprise_v2 record has no case workflow and no identifiers: its prompt says
so, and the schema (:mod:`simulator.judge.llm_output`) holds those three metrics to null,
as the reference judge marks them not applicable.

``PROMPT_VERSION`` carries a fingerprint of the template text, so editing the wording
changes every judge call's cache key and the rubric hash its judgments cite.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, ConfigDict

from simulator.cases import Case
from simulator.judge.metrics import BAND_UPPER, BANDS, METRICS, MetricName
from simulator.readers.base import Evidence
from simulator.runner.trajectory.model import Trajectory

SINGLE_TURN_NOT_APPLICABLE: tuple[MetricName, ...] = (
    "identifier_integrity", "case_issue_identification", "case_resolution_alignment")
"""What a single-turn enterprise_v2 record cannot be scored on (the reference judge's rule)."""

SUBJECT = "Enterprise policy question"
DESCRIPTION = ("A single question about company policy, answered by an assistant from the "
               "policy search tool's results. There are no earlier turns, no case workflow "
               "and no structured identifiers.")
PADDING = ("For context, a calendar year has twelve months, and most offices are closed on "
           "public holidays.")
"""The padding probe's text: true, and irrelevant to every question of the corpus."""


def _rubric() -> str:
    lines = []
    for m in METRICS:
        anchors = "; ".join(f"{band}: {m.anchors[band]}" for band in BANDS)
        lines.append(f"- {m.name} ({m.title}): {m.definition} Anchors, {anchors}.")
    return "\n".join(lines)


def _bands() -> str:
    low = 0.0
    parts = []
    for band in BANDS:
        parts.append(f"{band} {low:.2f}-{BAND_UPPER[band]:.2f}")
        low = BAND_UPPER[band] + 0.01
    return ", ".join(parts)


SYSTEM = f"""\
You are an evaluation judge for an enterprise retrieval-augmented assistant. You score one
assistant turn on eight metrics. Use only the inputs given: the case subject and
description, the conversation history, the current query, the retrieved evidence and the
assistant's answer. Do not use outside knowledge, and do not reward length or style.

Metrics:
{_rubric()}

Severity protocol: for each metric, first name the most severe issue you find (or "none"),
then give a score in [0, 1] inside that issue's band: {_bands()}. Evidence marked
superseded or with an older effective year than another version of the same policy is
stale. A metric the inputs say cannot apply to this turn gets a null score and a
justification saying why.

Reply with one JSON object and nothing else. For every metric NAME above it has the keys
"NAME_score" (a number in [0, 1], or null where the metric cannot apply) and
"NAME_justification" (one or two sentences naming the most severe issue)."""


class JudgeAnswer(BaseModel):
    """The answer as the judge sees it."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    value: str | None
    citations: tuple[str, ...] = ()
    abstained: bool = False
    reason: str | None = None
    prose: str | None = None


class JudgeInput(BaseModel):
    """Everything one judge call sees (and so what its cache key covers)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    case_subject: str
    case_description: str
    history: tuple[str, ...] = ()
    """Earlier turns, one ``role: text`` line each (none for a single-turn record)."""
    query: str
    evidence: tuple[Evidence, ...]
    answer: JudgeAnswer
    not_applicable: tuple[MetricName, ...] = ()

    def prompt_hash(self) -> str:
        body = json.dumps([PROMPT_VERSION, self.model_dump(mode="json")], sort_keys=True)
        return hashlib.sha256(body.encode()).hexdigest()[:16]

    def reversed_evidence(self) -> JudgeInput:
        """The order-bias probe: the same evidence, last first."""
        return self.model_copy(update={"evidence": tuple(reversed(self.evidence))})

    def padded(self) -> JudgeInput:
        """The verbosity probe: the answer with true but irrelevant text appended."""
        prose = f"{self.answer.prose} {PADDING}" if self.answer.prose else PADDING
        return self.model_copy(update={"answer": self.answer.model_copy(
            update={"prose": prose})})


def judge_input(trajectory: Trajectory, case: Case | None = None,
                history: Sequence[tuple[str, str]] = ()) -> JudgeInput:
    """A record's judge input, from its stored trajectory: the hits the agent was shown
    (after faults and the contract step), each document once, in the order seen. A case
    turn adds its case as filed (subject, description: what the agent's environment holds,
    no label) and the exchanges it was answered with; all eight metrics may apply to it."""
    seen: dict[str, Evidence] = {}
    for step in trajectory.steps:
        if step.shown:
            for hit in step.hits:
                seen.setdefault(hit.doc_id, hit)
    a = trajectory.answer
    lines = tuple(line for user, reply in history
                  for line in (f"user: {user}", f"assistant: {reply}"))
    return JudgeInput(
        case_subject=case.subject if case else SUBJECT,
        case_description=case.description if case else DESCRIPTION, history=lines,
        query=trajectory.task_message, evidence=tuple(seen.values()),
        answer=JudgeAnswer(value=a.value, citations=a.citations, abstained=a.abstained,
                           reason=a.reason, prose=a.prose),
        not_applicable=() if case else SINGLE_TURN_NOT_APPLICABLE)


def _document(e: Evidence) -> str:
    attrs = {"doc_id": e.doc_id, "title": e.title, "status": e.status,
             "effective_year": e.effective_year, "version": e.version}
    head = " ".join(f"{k}={json.dumps(v)}" for k, v in attrs.items() if v is not None)
    return f"<document {head}>\n{e.text}\n</document>"


def render_user(item: JudgeInput) -> str:
    a = item.answer
    answer = {"answer": a.value, "citations": list(a.citations), "abstained": a.abstained,
              "reason": a.reason}
    parts = [f"Case subject: {item.case_subject}",
             f"Case description: {item.case_description}",
             "Conversation history:\n" + ("\n".join(item.history) if item.history else
                                          "(none: this is the first turn)"),
             f"Current query:\n{item.query}",
             "Retrieved evidence:\n" + ("\n".join(_document(e) for e in item.evidence)
                                        if item.evidence else "(nothing was retrieved)"),
             "Assistant answer (structured):\n" + json.dumps(answer)]
    if a.prose:
        parts.append(f"Assistant message:\n{a.prose}")
    if item.not_applicable:
        parts.append("Metrics that cannot apply to this turn (score null): "
                     + ", ".join(item.not_applicable) + ".")
    return "\n\n".join(parts)


def render_messages(item: JudgeInput) -> list[BaseMessage]:
    return [SystemMessage(SYSTEM), HumanMessage(render_user(item))]


def _fingerprint() -> str:
    """A digest of the template: the system text and a fixed sample rendered, so a change of
    wording or of layout changes it."""
    sample = JudgeInput(case_subject="s", case_description="d", history=("user: h",),
                        query="q", evidence=(Evidence(doc_id="x", title="t", text="e",
                                                      status="current", effective_year=1,
                                                      version="v"),),
                        answer=JudgeAnswer(value="a", citations=("x",), reason="r",
                                           prose="p"),
                        not_applicable=SINGLE_TURN_NOT_APPLICABLE)
    body = SYSTEM + render_user(sample) + render_user(sample.padded()) + SUBJECT + DESCRIPTION
    return hashlib.sha256(body.encode()).hexdigest()[:8]


PROMPT_VERSION = "judge-prompt-1-" + _fingerprint()
