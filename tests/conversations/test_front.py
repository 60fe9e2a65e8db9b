"""The pipeline's conversation front: identifiers, clarification, the searched question,
and the rule that withdraws a value no cited sentence speaks to."""

from __future__ import annotations

import pytest

from simulator.answers.conversation import (
    conversation_question,
    identifier_tokens,
    needs_clarification,
    speaks_to,
)
from simulator.cases.schedule import parse_schedule
from simulator.errors import UsageError


def test_identifier_tokens_find_codes_assets_versions_paths_and_commands() -> None:
    text = ("replctl status --lag on db-ord-r2 shows it; FAC-23104 in BLD-B-F4, LIC-2207 on "
            "release 11.2 under /var/lib/pgsql/archive, a follow-up about k8s-wk-11")
    assert identifier_tokens(text) == (
        "replctl status --lag", "db-ord-r2", "FAC-23104", "BLD-B-F4", "LIC-2207", "11.2",
        "/var/lib/pgsql/archive", "k8s-wk-11")


def test_a_thread_that_names_nothing_or_a_new_unnamed_thing_gets_a_question() -> None:
    assert needs_clarification([], "Our backups keep failing every night. How do I fix it?")
    assert needs_clarification(["VPN-619 on the laptops."], "Another one is dropping. Why?")
    assert not needs_clarification(["VPN-619 on the laptops."], "And how long until it drops?")
    assert not needs_clarification([], "The job on FS-0142 shows BKP-4102. Which release?")


def test_the_question_searched_is_the_thread_then_the_message() -> None:
    assert conversation_question(["LIC-2207 on CS-30418."], "And which command?") == \
        "LIC-2207 on CS-30418. And which command?"


def test_a_value_stays_only_where_a_cited_sentence_speaks_to_the_message() -> None:
    text = "Refunds are not covered here. Each seat may be activated on 3 machines a year."
    assert speaks_to("On how many machines a year may a seat be activated?", "3", [text])
    assert not speaks_to("Will the customer get a refund for the lost days?", "3", [text])
    assert speaks_to("And by when?", "3", [text])  # a short follow-up is not tested
    assert speaks_to("So what does the customer get back for the lost days?", "3", [text])


@pytest.mark.parametrize(("text", "when", "turn"), [("at:2", "at", 2), ("from:3", "from", 3),
                                                     ("always", "always", 1)])
def test_schedules_parse(text: str, when: str, turn: int) -> None:
    schedule = parse_schedule(text)
    assert (schedule.when, schedule.turn, str(schedule)) == (when, turn, text)


def test_a_schedule_acts_on_its_turns_only() -> None:
    at, since = parse_schedule("at:2"), parse_schedule("from:2")
    assert [at.active(t) for t in (1, 2, 3)] == [False, True, False]
    assert [since.active(t) for t in (1, 2, 3)] == [False, True, True]


@pytest.mark.parametrize("text", ["at:0", "at", "turn:2", "from:x", ""])
def test_a_bad_schedule_is_one_line(text: str) -> None:
    with pytest.raises(UsageError, match="expected at:K, from:K"):
        parse_schedule(text)
