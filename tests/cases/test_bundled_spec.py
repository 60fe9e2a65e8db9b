"""The bundled cases_v1 spec: it validates, and it has the shape issue 29 asks for (four
domains of twelve cases, three to five turns each, every MTRAG turn kind in every domain)."""

from __future__ import annotations

import re
from collections import Counter

from simulator.cases import TURN_KINDS, build_case_corpus, check_case_spec, load_case_spec
from simulator.cases.checks import older_versions, statuses

DOMAINS = ("it_operations", "product_support", "security_operations", "service_desk")
KIND_FORMAT = {"error_code": "error_code", "version": "version_number", "command": "command",
               "file_path": "file_path"}


def test_the_bundled_spec_has_no_problem_at_all() -> None:
    check = check_case_spec(None)
    assert [p.line() for p in check.problems] == []
    assert check.spec is not None


def test_four_domains_of_twelve_cases_of_three_to_five_turns() -> None:
    spec = load_case_spec()
    assert tuple(d.domain for d in spec.domains) == DOMAINS
    for domain in spec.domains:
        assert len(domain.cases) == 12, domain.domain
        assert all(3 <= len(c.turns) <= 5 for c in domain.cases), domain.domain
        kinds = Counter(t.kind for c in domain.cases for t in c.turns)
        assert set(kinds) == set(TURN_KINDS), (domain.domain, kinds)
    corpus = build_case_corpus()
    assert len(corpus.cases) == len(corpus.labels) == 48
    assert len({c.case_id for c in corpus.cases}) == 48


def test_every_case_has_a_current_and_a_superseded_version_and_a_valued_turn() -> None:
    for domain in load_case_spec().domains:
        for case in domain.cases:
            status = Counter(statuses(case.documents).values())
            assert status["current"] >= 1 and status["superseded"] >= 1, case.id
            assert any(t.kind in ("answerable", "follow_up") for t in case.turns), case.id
            assert case.turns[0].kind != "follow_up", case.id


def test_no_two_cases_share_a_subject_issue_or_turn_message() -> None:
    cases = [c for d in load_case_spec().domains for c in d.cases]
    for field in ("subject", "issue", "description"):
        values = [getattr(c, field) for c in cases]
        assert len(set(values)) == len(values), field
    messages = [t.message for c in cases for t in c.turns]
    assert len(set(messages)) == len(messages)


def test_identifiers_of_the_new_domains_fit_their_declared_formats() -> None:
    """The validator does not hold identifiers to formats (it_operations has free-form ones
    such as ``REFUSED`` and ``monagent restart``); the three newer domains keep to them, so a
    reader extracting with the declared patterns finds them whole."""
    spec = load_case_spec()
    patterns = {f.name: re.compile(f.pattern) for f in spec.corpus.formats}
    for domain in spec.domains[1:]:
        for case in domain.cases:
            for ident in case.identifiers:
                fmt = KIND_FORMAT.get(ident.kind)
                if fmt is not None:
                    assert patterns[fmt].fullmatch(ident.value), (case.id, ident.value)


def test_no_turn_message_gives_away_its_own_expected_value() -> None:
    corpus = build_case_corpus()
    for case, labels in zip(corpus.cases, corpus.labels, strict=True):
        for turn, truth in zip(case.turns, labels.turns, strict=True):
            for value in truth.accepted_answers:
                stated = rf"(?<![\w$.]){re.escape(value)}(?![\w]|\.\d)"
                assert not re.search(stated, turn.message, re.IGNORECASE), (
                    labels.case_key, truth.position, value)


def _states(text: str, value: str) -> bool:
    return re.search(rf"(?<![\w$.]){re.escape(value)}(?![\w]|\.\d)", text, re.IGNORECASE) \
        is not None


def test_current_and_stale_values_tell_the_versions_apart() -> None:
    """A stale value is not also in the current version, the current value not also in the
    superseded one, and the ticket as filed states neither: otherwise a stale-index answer
    and a right one could not be told apart, or the description would give the answer."""
    for domain in load_case_spec().domains:
        for case in domain.cases:
            by_key = {d.key: d for d in case.documents}
            for i, turn in enumerate(case.turns):
                if turn.expected is None:
                    continue
                at = (case.id, i)
                assert not _states(f"{case.subject} {case.description}", turn.expected), at
                if turn.stale is None:
                    continue
                for key in turn.docs:
                    assert not _states(by_key[key].text, turn.stale), at
                    for older in older_versions(key, case.documents):
                        assert not _states(older.text, turn.expected), at
