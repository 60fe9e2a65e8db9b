"""The strict scorer on hand-made traces: each metric fails for its own reason."""

from __future__ import annotations

import pytest

from simulator.agent.trace import ToolCallTrace, Trace
from simulator.answers.normalize import normalize_answer
from simulator.corpus.model import Labels, SessionContext, Task
from simulator.readers.base import AgentAnswer, unknown_answer
from simulator.scoring.failure import failure_layer
from simulator.scoring.metrics import answerable, score

SESSION = SessionContext(session_id="s-me", tenant="t", user_id="u", access_groups=("all",))
TASK = Task(task_id="t1", row=0, question="How long is the return window?",
            answer_format="duration", session=SESSION)
LABELS = Labels(task_id="t1", row=0, unit=0, unit_id="RET-01", variant=0, domain="returns",
                answer_format="duration", expected_answer="45 days",
                accepted_answers=("45 days", "forty-five days"),
                superseded_answers=("30 days",), required_doc_ids=("d-cur",),
                superseded_doc_ids=("d-old",), access_group="all")
TEXTS = {"d-cur": "Items may be returned within 45 days.",
         "d-old": "Items may be returned within 30 days."}


def call(doc_ids: tuple[str, ...] = ("d-cur", "d-old"), **kw: object) -> ToolCallTrace:
    base: dict[str, object] = dict(tool="search_policies", attempt=0, status="ok", valid=True,
                                   doc_ids=doc_ids, session_id="s-me", snapshot_id="live")
    base.update(kw)
    return ToolCallTrace(**base)  # type: ignore[arg-type]


def trace(*calls: ToolCallTrace) -> Trace:
    return Trace(caller_session_id="s-me", tool_calls=calls)


def test_a_correct_cited_answer_is_strict_success() -> None:
    s = score(AgentAnswer(answer="45 Days.", citations=("d-cur",)), trace(call()), LABELS, TASK,
              TEXTS)
    assert (s.E, s.R, s.G, s.V, s.S, s.grounded, s.safe_resolution) == (True,) * 7


def test_abstention_is_a_strict_failure_but_not_grounded() -> None:
    s = score(unknown_answer("not sure"), trace(call()), LABELS, TASK, TEXTS)
    assert not s.S and s.abstained and not s.grounded
    assert not s.safe_resolution  # the evidence was there: abstaining was not safe


def test_an_uncited_answer_fails_g() -> None:
    s = score(AgentAnswer(answer="45 days"), trace(call()), LABELS, TASK, TEXTS)
    assert s.E and not s.G and not s.S


def test_citing_an_unretrieved_document_fails_g() -> None:
    s = score(AgentAnswer(answer="45 days", citations=("d-cur", "d-x")), trace(call()), LABELS,
              TASK, TEXTS)
    assert not s.G


def test_an_invalid_tool_call_fails_v_and_hides_its_documents() -> None:
    t = trace(call(status="invalid", valid=False))
    s = score(AgentAnswer(answer="45 days", citations=("d-cur",)), t, LABELS, TASK, TEXTS)
    assert not s.V and not s.R and not s.S
    assert not answerable(t, LABELS)


def test_a_stale_answer_is_grounded_but_not_successful() -> None:
    t = trace(call(doc_ids=("d-old",), snapshot_id="stale"))
    ans = AgentAnswer(answer="30 days", citations=("d-old",))
    s = score(ans, t, LABELS, TASK, TEXTS)
    assert s.grounded and not s.S and s.groundedness_false_positive
    assert not s.answerable and not s.safe_resolution
    assert failure_layer(s, ans, t, LABELS) == "freshness"


def test_another_sessions_evidence_is_not_answerable() -> None:
    t = trace(call(session_id="s-other"))
    s = score(unknown_answer("session mismatch"), t, LABELS, TASK, TEXTS)
    assert not s.answerable and s.safe_resolution
    assert failure_layer(s, unknown_answer("x"), t, LABELS) == "session"


def test_failure_layers_follow_the_pipeline_order() -> None:
    wrong = AgentAnswer(answer="30 days", citations=("d-old",))
    cases = {
        "completeness": trace(call(doc_ids=(), status="missing", valid=False)),
        "contract": trace(call(status="invalid", valid=False)),
        "authorization": trace(call(doc_ids=(), access_denied=True)),
        "evidence": trace(call()),
    }
    for expected, t in cases.items():
        s = score(wrong, t, LABELS, TASK, TEXTS)
        assert failure_layer(s, wrong, t, LABELS) == expected
    ok = AgentAnswer(answer="45 days", citations=("d-cur",))
    assert failure_layer(score(ok, trace(call()), LABELS, TASK, TEXTS), ok, trace(call()),
                         LABELS) is None


def test_yes_no_groundedness_reads_polarity() -> None:
    task = TASK.model_copy(update={"question": "Are refunds allowed?", "answer_format": "yes_no"})
    texts = {"d-cur": "Refunds are not allowed after shipping."}
    t = trace(call(doc_ids=("d-cur",)))
    assert score(AgentAnswer(answer="no", citations=("d-cur",)), t, LABELS, task, texts).grounded
    assert not score(AgentAnswer(answer="yes", citations=("d-cur",)), t, LABELS, task,
                     texts).grounded


def test_normalization_ignores_case_articles_and_number_punctuation() -> None:
    assert normalize_answer("The $1,500.") == normalize_answer("$1500")
    assert normalize_answer("15 percent") == "15%"
    assert normalize_answer("Finance Director") == normalize_answer("the finance director")


def test_a_spelled_number_scores_like_its_digits() -> None:
    labels = LABELS.model_copy(update={"accepted_answers": ("six weeks",)})
    t = trace(call(doc_ids=("d-cur",)))
    texts = {"d-cur": "Items may be returned within six weeks."}
    s = score(AgentAnswer(answer="6 weeks", citations=("d-cur",)), t, labels, TASK, texts)
    assert s.E and s.grounded


def test_a_frequency_scores_by_its_format_not_its_wording() -> None:
    labels = LABELS.model_copy(update={"answer_format": "frequency",
                                       "accepted_answers": ("every quarter",)})
    task = TASK.model_copy(update={"answer_format": "frequency"})
    texts = {"d-cur": "Audits run quarterly."}
    s = score(AgentAnswer(answer="quarterly", citations=("d-cur",)), trace(call()), labels,
              task, texts)
    assert s.E and s.grounded


def test_a_time_of_day_scores_on_a_24_hour_clock() -> None:
    labels = LABELS.model_copy(update={"answer_format": "time_of_day",
                                       "accepted_answers": ("9:30 pm",)})
    task = TASK.model_copy(update={"answer_format": "time_of_day"})
    texts = {"d-cur": "The doors are locked at 21:30."}
    s = score(AgentAnswer(answer="21:30", citations=("d-cur",)), trace(call()), labels, task,
              texts)
    assert s.E and s.grounded


def test_a_declared_format_applies_its_own_normalisation() -> None:
    fmt = "queue_code (normalise: ignore_spaces, ignore_punctuation; pattern: [A-Z]+-[A-Z]+)"
    labels = LABELS.model_copy(update={"answer_format": fmt,
                                       "accepted_answers": ("ENG-HOTFIX",),
                                       "superseded_answers": ("OPS-URGENT",)})
    task = TASK.model_copy(update={"answer_format": fmt})
    s = score(AgentAnswer(answer="eng hotfix", citations=("d-cur",)), trace(call()), labels,
              task, TEXTS)
    assert s.E
    wrong = AgentAnswer(answer="ops urgent", citations=("d-old",))
    assert failure_layer(score(wrong, trace(call()), labels, task, TEXTS), wrong,
                         trace(call()), labels) == "evidence"


def test_strict_success_is_the_conjunction_of_its_four_parts() -> None:
    from itertools import product

    from simulator.scoring.outcome import strict_success

    for e, r, g, v in product((True, False), repeat=4):
        assert strict_success(e, r, g, v) == (e and r and g and v)


def _only_e_fails() -> tuple[AgentAnswer, Trace]:
    return AgentAnswer(answer="30 days", citations=("d-cur",)), trace(call())


def _only_r_fails() -> tuple[AgentAnswer, Trace]:
    # The answer is right and cited from a retrieved document, but not the required one.
    return AgentAnswer(answer="45 days", citations=("d-copy",)), trace(call(("d-copy",)))


def _only_g_fails() -> tuple[AgentAnswer, Trace]:
    return AgentAnswer(answer="45 days"), trace(call())


def _only_v_fails() -> tuple[AgentAnswer, Trace]:
    # A first call was rejected; the retry returned the required document intact.
    return (AgentAnswer(answer="45 days", citations=("d-cur",)),
            trace(call((), status="invalid", valid=False), call()))


@pytest.mark.parametrize(("make", "failing"), [
    (_only_e_fails, "E"), (_only_r_fails, "R"), (_only_g_fails, "G"), (_only_v_fails, "V")])
def test_each_conjunct_failing_alone_fails_strict_success(make, failing: str) -> None:
    answer, t = make()
    s = score(answer, t, LABELS, TASK, {**TEXTS, "d-copy": TEXTS["d-cur"]})
    parts = {"E": s.E, "R": s.R, "G": s.G, "V": s.V}
    assert [name for name, ok in parts.items() if not ok] == [failing]
    assert not s.S
