"""The deterministic reader discloses a conflict it reads from the evidence, and resolves it
by validity; given the guiding prompt it asks for clarification instead."""

from __future__ import annotations

from simulator.readers.base import Evidence, ReaderInput
from simulator.readers.conflict import GUIDING_PROMPT
from simulator.readers.deterministic import DeterministicReader

Q = "How many days is the return window?"
NEW = Evidence(doc_id="d_new", title="Return window", text="Returns are accepted within 30 days.",
               status="current", effective_year=2024)
OLD = Evidence(doc_id="d_old", title="Return window", text="Returns are accepted within 14 days.",
               status="current", effective_year=2019)


def read(*evidence: Evidence, notes: tuple[str, ...] = (), instructions: str = ""):
    item = ReaderInput(question=Q, answer_format="duration", evidence=evidence, notes=notes,
                       instructions=instructions)
    return DeterministicReader().read(item).answer


def test_in_force_versions_that_disagree_are_disclosed_and_resolved_to_the_newest() -> None:
    answer = read(OLD, NEW)
    assert answer.answer == "30 days" and answer.citations == ("d_new",)
    assert answer.conflict.noticed and answer.conflict.resolution == "resolved"
    assert "d_old" in (answer.conflict.note or "")


def test_without_a_conflict_nothing_is_disclosed() -> None:
    superseded = OLD.model_copy(update={"status": "superseded"})
    answer = read(NEW, superseded)
    assert answer.answer == "30 days" and not answer.conflict.noticed


def test_the_guiding_prompt_turns_a_conflict_into_a_clarification_request() -> None:
    answer = read(OLD, NEW, instructions=GUIDING_PROMPT)
    assert answer.abstained and answer.conflict.noticed
    assert answer.conflict.resolution == "clarify"


def test_the_guiding_prompt_also_raises_a_false_alarm_on_version_history() -> None:
    superseded = OLD.model_copy(update={"status": "superseded"})
    answer = read(NEW, superseded, instructions=GUIDING_PROMPT)
    assert answer.abstained and answer.conflict.resolution == "clarify"
