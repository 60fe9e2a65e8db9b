"""Normalisation for exact match: each format compares the way people write it."""

from __future__ import annotations

import pytest

from simulator.answers.normalize import matches_any, normalize_answer


def test_spelled_numbers_normalise_as_digits_in_every_format() -> None:
    assert normalize_answer("six weeks") == normalize_answer("6 weeks")
    assert normalize_answer("forty-five days") == normalize_answer("45 days")
    assert normalize_answer("Three") == "3"


@pytest.mark.parametrize("group", [
    ("quarterly", "every quarter", "once a quarter", "each quarter"),
    ("twice a year", "2 times per year", "semi-annually", "twice yearly"),
    ("every two weeks", "fortnightly", "every other week", "biweekly"),
    ("annually", "every year", "once a year", "yearly"),
])
def test_frequencies_written_differently_normalise_alike(group: tuple[str, ...]) -> None:
    assert len({normalize_answer(f, "frequency") for f in group}) == 1


def test_different_frequencies_stay_different() -> None:
    assert normalize_answer("every week", "frequency") != normalize_answer("every two weeks",
                                                                           "frequency")


@pytest.mark.parametrize(("time", "clock"), [
    ("9:30 pm", "21:30"), ("9.30 p.m.", "21:30"), ("21:30", "21:30"), ("noon", "12:00"),
    ("12 am", "00:00"), ("7 a.m.", "07:00"), ("midnight", "00:00"),
])
def test_times_of_day_normalise_to_a_24_hour_clock(time: str, clock: str) -> None:
    assert normalize_answer(time, "time_of_day") == clock


def test_a_declared_format_adds_its_steps_only_when_named() -> None:
    fmt = "queue_code (normalise: ignore_spaces, ignore_punctuation; pattern: [A-Z]+-[A-Z]+)"
    assert matches_any("eng hotfix", ("ENG-HOTFIX",), fmt)
    assert not matches_any("eng hotfix", ("ENG-HOTFIX",))


def test_roles_ignore_case_articles_and_apostrophes() -> None:
    assert matches_any("Requesting team's manager", ("the requesting team's manager",), "role")


def test_a_role_drops_a_leading_possessive() -> None:
    assert matches_any("line manager", ("your line manager",), "role")
    assert not matches_any("line manager", ("your line manager",))
