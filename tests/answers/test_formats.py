"""Answer formats: descriptors a task states, and which values each format accepts."""

from __future__ import annotations

import pytest

from simulator.answers.formats import FormatSpec, parse_format, value_matches_format

QUEUE = "queue_code (normalise: ignore_spaces; pattern: [A-Z]{2,4}-[A-Z]+)"


def test_a_builtin_format_is_stated_by_its_bare_name() -> None:
    assert parse_format("duration") == FormatSpec(name="duration")
    assert FormatSpec(name="duration").describe() == "duration"


def test_a_choice_states_its_options_and_reads_back_the_same() -> None:
    fmt = FormatSpec(name="choice", options=("a rotating draw", "length of service"))
    assert fmt.describe() == "choice (one of: a rotating draw | length of service)"
    assert parse_format(fmt.describe()) == fmt


def test_a_declared_format_states_its_pattern_and_normalisation() -> None:
    fmt = parse_format(QUEUE)
    assert (fmt.kind, fmt.pattern, fmt.normalise) == ("declared", "[A-Z]{2,4}-[A-Z]+",
                                                      ("ignore_spaces",))
    assert fmt.describe() == QUEUE


@pytest.mark.parametrize("descriptor", ["choice", "queue_code", "duration (pattern: x)",
                                        "Duration", "queue_code (normalise: loud; pattern: x)",
                                        "choice (a | b)"])
def test_a_malformed_descriptor_is_refused(descriptor: str) -> None:
    with pytest.raises(ValueError):
        parse_format(descriptor)


@pytest.mark.parametrize(("value", "fmt"), [
    ("three", "count"), ("3", "count"), ("forty-five", "count"),
    ("six weeks", "duration"), ("10 business days", "duration"),
    ("twice a year", "frequency"), ("every quarter", "frequency"), ("monthly", "frequency"),
    ("every two weeks", "frequency"),
    ("9:30 pm", "time_of_day"), ("17:00", "time_of_day"), ("noon", "time_of_day"),
    ("the regional facilities lead", "role"), ("the requesting team's manager", "role"),
    ("Finance Director", "role"), ("ENG-HOTFIX", QUEUE),
])
def test_values_people_write_are_accepted(value: str, fmt: str) -> None:
    assert value_matches_format(value, fmt)


@pytest.mark.parametrize(("value", "fmt"), [
    ("three reviewers", "count"), ("weeks", "duration"), ("sometimes", "frequency"),
    ("late", "time_of_day"), ("the regional facilities", "role"), ("eng-hotfix", QUEUE),
])
def test_values_of_another_shape_are_refused(value: str, fmt: str) -> None:
    assert not value_matches_format(value, fmt)


def test_a_choice_value_is_one_of_its_options() -> None:
    fmt = "choice (one of: a rotating draw | length of service)"
    assert value_matches_format("length of service", fmt)
    assert not value_matches_format("seniority", fmt)
