"""Extraction of each format from prose, the way the deterministic reader reads it."""

from __future__ import annotations

from simulator.answers.extract import extract_value

CHOICE = "choice (one of: a rotating draw | length of service)"


def test_a_spelled_duration_is_read() -> None:
    text = "Hot desks can be reserved up to two weeks in advance in the booking app."
    assert extract_value(text, "How far in advance can a desk be reserved?",
                         "duration") == "two weeks"


def test_digits_are_read_before_words_in_one_document() -> None:
    text = ("The full review of a claim takes 10 business days. Photos are due within two "
            "days of delivery.")
    assert extract_value(text, "How long does the review of a claim take?",
                         "duration") == "10 business days"


def test_a_spelled_count_must_count_something() -> None:
    assert extract_value("A pull request needs two reviewers before it is merged.",
                         "How many reviewers must approve a pull request?", "count") == "two"
    assert extract_value("Treasury may take a discount where a supplier offers one.",
                         "How many quotes does a supplier offer?", "count") is None


def test_a_lowercase_role_is_read_where_the_prose_names_it_as_an_actor() -> None:
    text = ("Staff who need to work outside opening hours must have access approved by the "
            "regional facilities lead.")
    assert extract_value(text, "Who approves access outside opening hours?",
                         "role") == "regional facilities lead"


def test_a_possessive_role_keeps_its_owner() -> None:
    text = "Every trip abroad must be approved by the requesting team's manager."
    assert extract_value(text, "Who approves a trip abroad?",
                         "role") == "requesting team's manager"


def test_a_role_mentioned_in_passing_is_not_an_answer() -> None:
    text = "A customer who remains unhappy after speaking with a team lead may complain."
    assert extract_value(text, "Who handles an unhappy customer?", "role") is None


def test_a_capitalised_title_is_still_read_as_before() -> None:
    text = "Complaints are escalated to the Customer Experience Director, who owns the case."
    assert extract_value(text, "Who owns an escalated complaint?",
                         "role") == "Customer Experience Director"


def test_frequencies_and_times_of_day_are_read() -> None:
    assert extract_value("Fire drills are held twice a year, once in spring.",
                         "How often are fire drills held?", "frequency") == "twice a year"
    assert extract_value("The building is locked at 9:30 pm on weekdays.",
                         "What time is the building locked?", "time_of_day") == "9:30 pm"


def test_a_choice_takes_the_option_the_prose_states_not_the_one_it_sets_aside() -> None:
    text = ("Permits are no longer given out by length of service. They are allocated by a "
            "rotating draw each quarter.")
    assert extract_value(text, "How are permits allocated?", CHOICE) == "a rotating draw"


def test_a_choice_is_read_when_the_question_names_every_option() -> None:
    text = "Parking permits are allocated in order of length of service."
    question = "Are permits given by a rotating draw or by length of service?"
    assert extract_value(text, question, CHOICE) == "length of service"


def test_a_declared_pattern_is_read() -> None:
    fmt = "queue_code (pattern: [A-Z]{2,4}-[A-Z]{3,10})"
    text = "Hotfix requests are filed in the ENG-HOTFIX queue. Other work goes to ENG-CHANGE."
    assert extract_value(text, "Which queue takes hotfix requests?", fmt) == "ENG-HOTFIX"
