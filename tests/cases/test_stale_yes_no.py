"""A yes_no turn's stale value is a polarity: yes or no, the other one than the expected's.

A reply to a yes_no turn is read as yes or no, and the scorer (the failure layer), the
judge and the trajectory reasons compare it with the turn's stale value to tell a reply
misled by a superseded version from a plain misreading. The expected value carries its
polarity in an alias beside the document's words; the stale value has no aliases, so it is
the polarity itself. Each test adds a fourth, yes_no turn to ITC-06 of a copy of cases_v1,
whose current article says "Never open the resolvers to any address."
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from simulator.answers.normalize import matches_any
from simulator.cases import check_case_spec, generate_case_corpus
from simulator.corpus.loader import bundled_spec_dir

IT = "it_operations.toml"
LAST_TURN = '''
[[cases.turns]]
kind = "unanswerable"
message = "What IP range will the next office after this one get?"
answer_type = "abstain"
answer_format = "system"
'''
OLD_TEXT = ('text = "Subnets are added to the resolver access list by the Infrastructure '
            'Architect, who edits the list during the weekly maintenance window."')
SAID_BEFORE = OLD_TEXT[:-1] + ' During that window the resolvers may be opened to any address."'
EXTRA_DOCUMENT = '''
[[cases.documents]]
key = "kb-dns-open"
title = "Open resolvers"
version = "v1"
effective_year = 2025
text = "Never open the resolvers to any address, whatever the change window."
'''


def _spec(tmp_path: Path, stale: str, docs: str = "kb-dns-acl-v3",
          extra_document: bool = False) -> Path:
    spec = tmp_path / "cases"
    shutil.copytree(bundled_spec_dir("cases_v1"), spec)
    text = (spec / IT).read_text(encoding="utf-8")
    turn = f'''
[[cases.turns]]
kind = "answerable"
message = "Could we simply open the resolvers to every address instead?"
answer_type = "instruct"
answer_format = "yes_no"
expected = "never open the resolvers"
aliases = ["no"]
stale = "{stale}"
docs = ["{docs}"]
'''
    assert text.count(LAST_TURN) == 1 and text.count(OLD_TEXT) == 1
    text = text.replace(LAST_TURN, LAST_TURN + turn).replace(OLD_TEXT, SAID_BEFORE)
    if extra_document:
        text = text.replace(LAST_TURN, EXTRA_DOCUMENT + LAST_TURN)
    (spec / IT).write_text(text, encoding="utf-8")
    return spec


def _only_error(spec: Path) -> str:
    check = check_case_spec(spec)
    assert check.spec is None
    (error,) = check.errors
    return error.line()


def test_a_yes_no_stale_value_of_the_other_polarity_is_valid_and_scored_as_stale(
        tmp_path: Path) -> None:
    check = check_case_spec(_spec(tmp_path, stale="yes"))
    assert [p.line() for p in check.problems] == []
    assert check.spec is not None
    corpus = generate_case_corpus(check.spec)
    labels = next(c for c in corpus.labels if c.case_key == "ITC-06").turns[3]
    assert labels.superseded_answers == ("yes",)
    assert labels.accepted_answers == ("never open the resolvers", "no")
    # what the rule is for: a reply read as "Yes" is recognised as the superseded answer
    assert matches_any("Yes", labels.superseded_answers, labels.answer_format)
    assert not matches_any("Yes", ("may be opened to any address",), labels.answer_format)


def test_a_yes_no_stale_value_in_the_documents_words_is_refused(tmp_path: Path) -> None:
    line = _only_error(_spec(tmp_path, stale="may be opened to any address"))
    for word in (IT, "unit ITC-06", "turns[3].stale", "'may be opened to any address'",
                 "not a yes_no stale value", "yes or no"):
        assert word in line, (word, line)


@pytest.mark.parametrize("stale", ["no", "No"])
def test_a_yes_no_stale_value_of_the_expected_polarity_is_refused(
        tmp_path: Path, stale: str) -> None:
    line = _only_error(_spec(tmp_path, stale=stale))
    for word in (IT, "unit ITC-06", "turns[3].stale", f"{stale!r}",
                 "polarity of the expected value 'never open the resolvers'", "'yes'"):
        assert word in line, (word, line)


def test_a_yes_no_stale_value_needs_a_superseded_version(tmp_path: Path) -> None:
    line = _only_error(_spec(tmp_path, stale="yes", docs="kb-dns-open", extra_document=True))
    for word in (IT, "unit ITC-06", "turns[3].stale", "'yes'",
                 "no required document has a superseded version"):
        assert word in line, (word, line)


def test_the_bundled_spec_has_no_valued_yes_no_turn_the_rule_could_refuse() -> None:
    """cases_v1's yes_no turns are all clarify or abstain turns, which carry no stale value:
    the rule changes nothing there (and the bundled spec validates, test_bundled_spec)."""
    check = check_case_spec()
    assert check.spec is not None
    yes_no = [t for d in check.spec.domains for c in d.cases for t in c.turns
              if t.answer_format == "yes_no"]
    assert yes_no and all(t.stale is None and t.expected is None for t in yes_no)
