"""The cases report keeps models apart: two models' conversations of one case are two
conversations, paired with their own clean twins, never one overwriting the other."""

from __future__ import annotations

from simulator.cases.scoring import TurnScore
from simulator.report.cases import TurnView, cases_report


def _turn(model: str, scenario: str, turn: int, *, S: bool, safe: bool = True) -> TurnView:
    score = TurnScore(turn=turn, kind="answerable", S=S, safe=safe and S,
                      identifier_exact=True, workflow_ok=None, prohibited=False,
                      type_fit=True, errored=False, failure_layer=None if S else "reader")
    return TurnView(model, "uncontrolled", scenario, "strict", "case_a", 1, turn, 2,
                    turn == 2 and scenario != "clean", score)


def test_two_models_are_two_conversations_with_their_own_twins() -> None:
    views = [
        _turn("good", "clean", 1, S=True), _turn("good", "clean", 2, S=True),
        _turn("bad", "clean", 1, S=True), _turn("bad", "clean", 2, S=False),
        _turn("good", "stale_index", 1, S=True), _turn("good", "stale_index", 2, S=True),
        _turn("bad", "stale_index", 1, S=True), _turn("bad", "stale_index", 2, S=False),
    ]
    report = cases_report(views, schedule="at:2", replicates=20)
    clean = next(c for c in report.cases if c.scenario == "clean")
    assert (clean.cases, clean.resolved.k, clean.resolved.n) == (2, 1, 2)
    # one model resolves, the other does not: the interval spans both, over model units
    assert clean.resolved.low == 0.0 and clean.resolved.high == 1.0
    first = {p.turn: p for p in report.positions if p.scenario == "clean"}
    assert (first[2].S.k, first[2].S.n) == (1, 2)
