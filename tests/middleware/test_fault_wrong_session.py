"""wrong_session: a session-keyed cache hands back another session's results, chosen by the
rule in middleware/faults/wrong_session.py."""

from __future__ import annotations

import json
import random

import pytest

from middleware import FaultContext, ToolChain, build_tool_chain, check_contract, with_faults
from middleware.faults.wrong_session import other_session
from simulator.corpus import Labels, Task
from simulator.endpoints import HEALTHY, EndpointConditions, PolicyEnvironment
from simulator.errors import UsageError
from tests.middleware.conftest import run_record, search_call


def test_the_payload_never_carries_the_callers_session(
        outputs: dict, records: list[tuple[Task, Labels]]) -> None:
    for raw, (task, _) in zip(outputs["wrong_session"], records, strict=True):
        assert raw["session_id"] != task.session.session_id


def test_it_is_another_sessions_cached_result_sharing_no_policy_with_the_callers(
        outputs: dict, env: PolicyEnvironment, records: list[tuple[Task, Labels]]) -> None:
    by_session = {t.session.session_id: (t, lab) for t, lab in records}
    shared = 0
    for raw, (task, labels) in zip(outputs["wrong_session"], records, strict=True):
        other_task, other_labels = by_session[raw["session_id"]]
        assert raw["query"] == other_task.question
        own = {v for d in env.results(task.question, task.session, depth=2 * env.top_k)
               for v in env.registry.lineage(d)}
        served = {h["doc_id"] for h in raw["hits"]}
        assert not served & own
        shared += bool(served & set(labels.required_doc_ids))
    # The scorer's view (labels, read by the test only): the served results never hold the
    # task's own document on enterprise_v2.
    assert shared == 0


def test_the_cache_is_sticky_across_retries(chains: dict[str, ToolChain],
                                            records: list[tuple[Task, Labels]]) -> None:
    task, labels = records[20]
    chain = chains["wrong_session"]
    assert run_record(chain, task, labels, attempt=2) == run_record(chain, task, labels)


def test_repair_does_not_fix_session_context(outputs: dict) -> None:
    for raw in outputs["wrong_session"]:
        assert check_contract(raw, "repair") == check_contract(raw, "strict")
        assert check_contract(raw, "repair").payload.session_id == raw["session_id"]


def test_the_chosen_session_is_the_first_shuffled_candidate_without_the_callers_policy(
        env: PolicyEnvironment, records: list[tuple[Task, Labels]]) -> None:
    """The rule as the module docstring states it, checked on every task, without labels."""
    for seed in (0, 3):
        for task, _ in records:
            caller = task.session.session_id
            candidates = [t.session.session_id for t, _ in records
                          if t.session.session_id != caller]
            random.Random(f"wrong_session|{seed}|{caller}").shuffle(candidates)
            policy = {v for d in env.results(task.question, task.session, depth=2 * env.top_k)
                      for v in env.registry.lineage(d)}
            expected = next((s for s in candidates
                             if not policy & set(env.cached_results(s))), candidates[0])
            assert other_session(env, caller, seed, HEALTHY) == expected


def test_the_fault_hands_its_choice_to_the_endpoint_as_the_served_session(
        chains: dict[str, ToolChain], env: PolicyEnvironment,
        records: list[tuple[Task, Labels]]) -> None:
    task, labels = records[3]
    ctx = FaultContext(task=task, seed=2)
    call, _ = chains["wrong_session"].prepare(search_call(task), ctx)
    assert call.conditions == EndpointConditions(
        served_session=other_session(env, task.session.session_id, 2, HEALTHY))
    assert run_record(chains["wrong_session"], task, labels, seed=2) == env.search_policies(
        task.question, task.session, call.conditions)


def test_without_the_environment_the_fault_cannot_choose(
        records: list[tuple[Task, Labels]]) -> None:
    task, labels = records[0]
    chain = build_tool_chain("wrong_session")
    with pytest.raises(UsageError, match="'wrong_session' makes its choice from the "
                                         "environment's state"):
        chain.invoke(search_call(task), FaultContext(task=task),
                     endpoint=lambda call: {})


def test_a_plain_tool_brings_its_environment_or_is_refused(
        env: PolicyEnvironment, records: list[tuple[Task, Labels]]) -> None:
    task, labels = records[5]
    ctx = FaultContext(task=task)
    mixed = with_faults(env.search_policies, "wrong_session")(
        query=task.question, session=task.session, fault_context=ctx)
    assert mixed == run_record(build_tool_chain("wrong_session", env), task, labels)

    def my_search(query: str, session: dict, conditions: EndpointConditions) -> dict:
        return env.search_policies(query, session, conditions)

    with pytest.raises(UsageError, match="pass environment=env"):
        with_faults(my_search, "wrong_session")
    explicit = with_faults(my_search, "wrong_session", environment=env)
    assert explicit(query=task.question, session=task.session, fault_context=ctx) == mixed


def test_a_langchain_tool_with_its_own_session_is_mixed_up_for_that_session(
        env: PolicyEnvironment, records: list[tuple[Task, Labels]]) -> None:
    from langchain.agents import create_agent

    from middleware import FaultInjectionMiddleware, FaultPlan, policy_tools
    from middleware.adapters.scripted_model import SearchThenAnswerModel

    (task, _labels), (bound, _) = records[0], records[40]
    agent = create_agent(SearchThenAnswerModel(), tools=policy_tools(env, session=bound.session),
                         middleware=[FaultInjectionMiddleware()], context_schema=FaultPlan)
    state = agent.invoke({"messages": [("user", task.question)]},
                         context=FaultPlan(scenario="wrong_session", task=task))
    raw = json.loads(state["messages"][2].content)
    assert raw["session_id"] == other_session(env, bound.session.session_id, 0, HEALTHY)
