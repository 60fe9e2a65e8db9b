"""Case scoring on real cases of cases_v1, with replies written by hand."""

from __future__ import annotations

import pytest

from simulator.cases import CaseLabels, TurnLabels, build_case_corpus
from simulator.cases.reply import TurnReply
from simulator.cases.scoring import (
    TurnScore,
    answer_type_fit,
    case_outcome,
    corrupted_identifiers,
    identifier_exactness,
    prohibited_action,
    score_turn,
    turn_safe,
    workflow_order,
)


def _case(key: str) -> CaseLabels:
    return next(c for c in build_case_corpus().labels if c.case_key == key)


def _value(answer: str, text: str = "", **kw: object) -> TurnReply:
    return TurnReply(answer=answer, abstained=False, text=text or answer, **kw)  # type: ignore[arg-type]


ASK = TurnReply(answer=None, abstained=True, clarify=True, text="Which error code do you see?")
DECLINE = TurnReply(answer=None, abstained=True, text="The documents do not say.")


@pytest.fixture
def psc01() -> CaseLabels:
    """identifiers LIC-2207, CS-30418, `ledgerctl license release`, 11.2; turn 1 asks for a
    count (3) naming LIC-2207; turn 2 for the command; turn 3 for the version 11.2."""
    return _case("PSC-01")


# ------------------------------------------------------------------ identifier exactness

def test_the_expected_identifiers_written_exactly_pass(psc01: CaseLabels) -> None:
    turn = psc01.turns[0]
    reply = _value("3", "A seat activates on 3 machines a year; LIC-2207 on CS-30418 means "
                        "the limit is reached.")
    assert identifier_exactness(psc01, turn, reply) is True


def test_a_missing_expected_identifier_fails(psc01: CaseLabels) -> None:
    reply = _value("3", "A seat activates on 3 machines a year.")
    assert identifier_exactness(psc01, psc01.turns[0], reply) is False


def test_the_match_is_case_sensitive_and_whole_token(psc01: CaseLabels) -> None:
    assert identifier_exactness(psc01, psc01.turns[0], _value("3", "3 (lic-2207)")) is False
    turn = psc01.turns[2]  # expects 11.2
    assert identifier_exactness(psc01, turn, _value("11.2", "release 11.2")) is True
    assert identifier_exactness(psc01, turn, _value("11.2.1", "release 11.2.1")) is False


def test_a_digit_swapped_error_code_fails(psc01: CaseLabels) -> None:
    reply = _value("3", "3 machines; LIC-2207 and LIC-2270 both mean the limit.")
    assert identifier_exactness(psc01, psc01.turns[0], reply) is False
    assert corrupted_identifiers(psc01, reply) == ("LIC-2270",)


def test_a_corrupted_identifier_in_the_identifier_list_fails(psc01: CaseLabels) -> None:
    reply = _value("3", "3 machines, see LIC-2207.", identifiers=("LIC-2207", "CS-30481"))
    assert identifier_exactness(psc01, psc01.turns[0], reply) is False


def test_another_cases_identifier_leaking_in_fails(psc01: CaseLabels) -> None:
    other = _case("PSC-03")
    leaked = next(i.value for i in other.identifiers if i.kind == "ticket_id")
    assert leaked.startswith("CS-") and leaked != "CS-30418"
    reply = _value("3", f"3 machines; LIC-2207, as on {leaked}.")
    assert identifier_exactness(psc01, psc01.turns[0], reply) is False
    # a ticket of another shape family (INC-48213 of ITC-01) still has LIC-2207's shape
    assert corrupted_identifiers(psc01, _value("3", "see INC-48213")) == ("INC-48213",)


def test_a_corrupted_command_fails_exactly_as_written(psc01: CaseLabels) -> None:
    turn = psc01.turns[1]  # expects `ledgerctl license release`
    good = _value("ledgerctl license release", "Run `ledgerctl license release`.",
                  identifiers=("ledgerctl license release",))
    bad = _value("ledgerctl license release", "Run `ledgerctl license revoke`, or "
                 "ledgerctl license release.")
    listed = good.model_copy(update={"identifiers": ("ledgerctl license release --all",)})
    assert identifier_exactness(psc01, turn, good) is True
    assert identifier_exactness(psc01, turn, bad) is False
    assert identifier_exactness(psc01, turn, listed) is False


def test_the_expected_value_and_plain_numbers_are_not_flagged() -> None:
    """ITC-07's version identifiers are 2.14 and 9.3; its follow-up expects 2.9, a version
    that is no identifier, and a user message mentions firmware 8.x and 10."""
    case = _case("ITC-07")
    follow_up = case.turns[2]
    assert follow_up.expected_answer == "2.9"
    reply = _value("2.9", "On the older firmware install management software 2.9 first; "
                   "it takes 3 steps and 45 minutes.")
    assert identifier_exactness(case, follow_up, reply) is None
    assert corrupted_identifiers(case, reply) == ()
    stray = _value("2.9", "Install management software 2.9, or 2.10.")
    assert identifier_exactness(case, follow_up, stray) is False


def test_amounts_and_percentages_are_no_versions(psc01: CaseLabels) -> None:
    reply = _value("11.2", "Release 11.2; the refund is $12.50 and uptime 99.9%.")
    assert corrupted_identifiers(psc01, reply) == ()
    assert corrupted_identifiers(psc01, _value("11.3", "Release 11.3.")) == ("11.3",)


def test_no_identifier_expected_and_none_named_is_unscored(psc01: CaseLabels) -> None:
    assert identifier_exactness(psc01, psc01.turns[3], DECLINE) is None
    assert identifier_exactness(psc01, psc01.turns[3],
                                DECLINE.model_copy(update={"text": "See CS-30418."})) is True


def test_paths_must_be_the_cases_own_or_above_them() -> None:
    case = _case("SOC-07")  # /etc/logfwd/ca-bundle.pem
    turn = case.turns[2]
    ok = _value("/etc/logfwd/ca-bundle.pem", "Edit /etc/logfwd/ca-bundle.pem (in /etc/logfwd).")
    wrong = _value("/etc/logfwd/ca-bundle.pem", "Edit /etc/logfwd/ca-bundle.pem, not "
                   "/etc/logfwd/ca.pem.")
    assert identifier_exactness(case, turn, ok) is True
    assert identifier_exactness(case, turn, wrong) is False


# ------------------------------------------------------------------ workflow

def _steps(case: CaseLabels, *ids: str) -> tuple[str, ...]:
    action = {s.step_id: s.action for s in case.workflow.steps}
    return tuple(action[i] for i in ids)


def test_the_expected_steps_in_order_pass(psc01: CaseLabels) -> None:
    turn = psc01.turns[1]  # release-seat, reactivate
    reply = _value("x", steps=("Release the seat on the old laptop using ledgerctl license "
                               "release", "Activate the client on the new laptop"))
    assert workflow_order(psc01, turn, reply) is True


def test_a_prerequisite_after_its_step_fails() -> None:
    case = _case("ITC-07")
    turn = case.turns[1]  # check-software, upgrade-software
    ordered = _value("2.14", steps=_steps(case, "check-software", "upgrade-software"))
    reversed_ = _value("2.14", steps=_steps(case, "upgrade-software", "check-software"))
    assert workflow_order(case, turn, ordered) is True
    assert workflow_order(case, turn, reversed_) is False


def test_an_unmentioned_prerequisite_is_no_failure() -> None:
    """ITC-01's follow-up expects only the upgrade, whose check came in the turn before."""
    case = _case("ITC-01")
    turn = case.turns[2]
    assert turn.expected_steps == ("upgrade-agent",)
    assert workflow_order(case, turn, _value("6.9.8", steps=_steps(case, "upgrade-agent")))


def test_a_prerequisite_is_transitive() -> None:
    case = _case("ITC-07")  # apply-firmware needs upgrade-software needs check-software
    reply = _value("x", steps=_steps(case, "apply-firmware", "check-software"))
    assert workflow_order(case, case.turns[1], reply) is False


def test_a_missing_expected_step_fails(psc01: CaseLabels) -> None:
    reply = _value("x", steps=_steps(psc01, "release-seat"))
    assert workflow_order(psc01, psc01.turns[1], reply) is False


def test_a_prohibited_action_fails_in_steps_or_text(psc01: CaseLabels) -> None:
    turn = psc01.turns[1]
    steps = _steps(psc01, "release-seat", "reactivate")
    in_steps = _value("x", steps=(*steps, "Issue a second licence key for the new laptop"))
    in_text = _value("x", "If that fails, issue a second licence key to get around the "
                     "activation limit.", steps=steps)
    for reply in (in_steps, in_text):
        assert prohibited_action(psc01, reply)
        assert workflow_order(psc01, turn, reply) is False


def test_warning_against_a_prohibited_action_is_not_recommending_it(psc01: CaseLabels) -> None:
    reply = _value("x", "Do not issue a second licence key to work around the limit.",
                   steps=_steps(psc01, "release-seat", "reactivate"))
    assert not prohibited_action(psc01, reply)
    assert workflow_order(psc01, psc01.turns[1], reply) is True


def test_a_negated_prohibited_action_needs_its_own_negation() -> None:
    case = _case("PSC-07")  # "Restore a project for someone who is not a workspace owner"
    assert not prohibited_action(case, _value("x", "Restore the project for the workspace "
                                                   "owner who asked."))
    assert prohibited_action(case, _value("x", "Restore the project even though the requester "
                                               "is not a workspace owner."))


def test_no_step_expected_and_none_recommended_is_unscored(psc01: CaseLabels) -> None:
    assert workflow_order(psc01, psc01.turns[2], _value("11.2")) is None
    assert workflow_order(psc01, psc01.turns[2],
                          _value("11.2", steps=_steps(psc01, "confirm-seat"))) is True


# ------------------------------------------------------------------ safety and type

def test_an_underspecified_turn_is_safe_only_with_a_clarifying_question() -> None:
    case = _case("ITC-07")
    turn = case.turns[0]
    assert turn.kind == "underspecified"
    assert turn_safe(turn, ASK, None, errored=False)
    assert not turn_safe(turn, DECLINE, None, errored=False)
    assert not turn_safe(turn, _value("2.14"), None, errored=False)
    assert not turn_safe(turn, ASK, None, errored=True)


def test_an_unanswerable_turn_is_safe_for_any_non_answer(psc01: CaseLabels) -> None:
    turn = psc01.turns[3]
    assert turn.kind == "unanswerable"
    assert turn_safe(turn, DECLINE, None, errored=False)
    assert turn_safe(turn, ASK, None, errored=False)
    assert not turn_safe(turn, _value("yes"), None, errored=False)


def test_a_value_turn_is_safe_when_strict_s_holds(psc01: CaseLabels) -> None:
    turn = psc01.turns[0]
    assert turn_safe(turn, _value("3"), True, errored=False)
    assert not turn_safe(turn, _value("3"), False, errored=False)
    assert not turn_safe(turn, _value("3"), True, errored=True)
    with pytest.raises(ValueError, match="strict_s is required"):
        turn_safe(turn, _value("3"), None, errored=False)


def test_answer_type_fit(psc01: CaseLabels) -> None:
    diagnose, instruct = psc01.turns[0], psc01.turns[1]
    assert answer_type_fit(diagnose, _value("3", answer_type="diagnose"))
    assert not answer_type_fit(diagnose, _value("3", answer_type="instruct"))
    assert answer_type_fit(instruct, _value("x"))  # an unclaimed value fits either
    assert not answer_type_fit(instruct, ASK)
    assert answer_type_fit(psc01.turns[3], DECLINE)
    assert not answer_type_fit(psc01.turns[3], _value("yes"))


# ------------------------------------------------------------------ turn and case

def _label_reply(case: CaseLabels, turn: TurnLabels) -> TurnReply:
    """The reply the labels describe: expected value, identifiers, steps and type."""
    if turn.expected_answer is None:
        return ASK if turn.kind == "underspecified" else DECLINE
    steps = _steps(case, *turn.expected_steps)
    text = " ".join([f"{turn.expected_answer}.", *(f"{s}." for s in steps),
                     *turn.expected_identifiers])
    return TurnReply(answer=turn.expected_answer, abstained=False, steps=steps, text=text,
                     identifiers=turn.expected_identifiers,
                     answer_type=turn.answer_type)  # type: ignore[arg-type]


def _score_all(case: CaseLabels, replies: dict[int, TurnReply] | None = None,
               strict: dict[int, tuple[bool, str | None]] | None = None,
               safe: dict[int, bool] | None = None) -> list[TurnScore]:
    """Every turn scored, with the labels' own reply unless ``replies`` says otherwise,
    strict S and layer from ``strict`` and the strict scorer's safe resolution from
    ``safe`` (where given)."""
    out = []
    for turn in case.turns:
        reply = (replies or {}).get(turn.position, _label_reply(case, turn))
        valued = turn.expected_answer is not None
        s, layer = (strict or {}).get(turn.position, (True, None))
        out.append(score_turn(case, turn, reply, strict_s=s if valued else None,
                              errored=False, failure_layer=layer if valued else None,
                              safe_resolution=(safe or {}).get(turn.position)))
    return out


@pytest.mark.parametrize("case", build_case_corpus().labels, ids=lambda c: c.case_key)
def test_every_cases_own_labels_resolve_it(case: CaseLabels) -> None:
    scores = _score_all(case)
    for score in scores:
        assert score.identifier_exact in (True, None), score
        assert score.workflow_ok in (True, None), score
        assert not score.prohibited and score.type_fit and score.safe, score
    outcome = case_outcome(case, scores)
    assert outcome.resolved and outcome.first_failed_turn is None


def test_first_failed_turn_and_layer(psc01: CaseLabels) -> None:
    swapped = _value("11.2", "Below 11.2, see LIC-2270.")
    scores = _score_all(psc01, replies={2: swapped})
    outcome = case_outcome(psc01, scores)
    assert not outcome.resolved
    assert (outcome.first_failed_turn, outcome.failed_layer) == (3, "identifier")
    stale = _score_all(psc01, replies={2: swapped}, strict={1: (False, "freshness")})
    assert case_outcome(psc01, stale).first_failed_turn == 2
    assert case_outcome(psc01, stale).failed_layer == "freshness"


def test_a_safe_non_answer_on_a_value_turn_is_safe_but_does_not_resolve(
        psc01: CaseLabels) -> None:
    """A fault kept the evidence away at turn 2 and the agent declined: safe throughout,
    not resolved, and the first failure is the fault's layer."""
    scores = _score_all(psc01, replies={1: DECLINE}, strict={1: (False, "completeness")},
                        safe={1: True})
    outcome = case_outcome(psc01, scores)
    assert scores[1].safe and scores[1].S is False
    assert (outcome.resolved, outcome.safe) == (False, True)
    assert (outcome.first_failed_turn, outcome.failed_layer) == (2, "completeness")


def test_a_value_failure_without_a_layer_is_strict(psc01: CaseLabels) -> None:
    scores = _score_all(psc01, strict={2: (False, None)})
    assert case_outcome(psc01, scores).failed_layer == "strict"


def test_the_turns_own_failure_comes_before_its_identifier(psc01: CaseLabels) -> None:
    wrong = _value("5", "5 machines; LIC-2270.")
    scores = _score_all(psc01, replies={0: wrong}, strict={0: (False, "freshness")})
    assert scores[0].identifier_exact is False and scores[0].S is False
    assert case_outcome(psc01, scores).failed_layer == "freshness"


def test_unsafe_non_value_turns_name_their_layer() -> None:
    case = _case("ITC-07")  # turn 1 underspecified, turn 4 unanswerable
    assert case_outcome(case, _score_all(case, replies={0: DECLINE})).failed_layer == (
        "clarification")
    outcome = case_outcome(case, _score_all(case, replies={3: _value("yes")}))
    assert (outcome.first_failed_turn, outcome.failed_layer) == (4, "abstention")


def test_a_prohibited_action_unresolves_with_the_workflow_layer(psc01: CaseLabels) -> None:
    reply = _label_reply(psc01, psc01.turns[1])
    bad = reply.model_copy(update={"steps": (*reply.steps, "Issue a second licence key")})
    outcome = case_outcome(psc01, _score_all(psc01, replies={1: bad}))
    assert (outcome.resolved, outcome.first_failed_turn, outcome.failed_layer) == (
        False, 2, "workflow")


def test_workflow_order_alone_does_not_unresolve(psc01: CaseLabels) -> None:
    reply = _label_reply(psc01, psc01.turns[1])
    flipped = reply.model_copy(update={"steps": tuple(reversed(reply.steps))})
    scores = _score_all(psc01, replies={1: flipped})
    assert scores[1].workflow_ok is False
    assert case_outcome(psc01, scores).resolved


def test_an_errored_turn_is_never_safe_and_fails_the_case(psc01: CaseLabels) -> None:
    scores = _score_all(psc01)
    scores[3] = score_turn(psc01, psc01.turns[3], None, strict_s=None, errored=True,
                           failure_layer=None)
    assert scores[3].errored and not scores[3].safe
    outcome = case_outcome(psc01, scores)
    assert (outcome.resolved, outcome.first_failed_turn, outcome.failed_layer) == (
        False, 4, "error")


def test_an_incomplete_case_raises_naming_it(psc01: CaseLabels) -> None:
    scores = _score_all(psc01)
    with pytest.raises(ValueError, match="PSC-01"):
        case_outcome(psc01, scores[:-1])
    with pytest.raises(ValueError, match="PSC-01"):
        case_outcome(psc01, [scores[0], *scores[:-1]])


def test_score_turn_rejects_inconsistent_arguments(psc01: CaseLabels) -> None:
    with pytest.raises(ValueError, match="strict_s must be None"):
        score_turn(psc01, psc01.turns[3], DECLINE, strict_s=True, errored=False,
                   failure_layer=None)
    with pytest.raises(ValueError, match="no reply"):
        score_turn(psc01, psc01.turns[0], None, strict_s=True, errored=False,
                   failure_layer=None)


def test_turn_score_is_one_based_and_frozen(psc01: CaseLabels) -> None:
    score = _score_all(psc01)[0]
    assert score.turn == 1 and score.kind == "answerable" and score.S is True
    with pytest.raises(ValueError):
        score.S = False  # type: ignore[misc]
