"""FaultInjectionMiddleware on a real create_agent agent with a deterministic chat model,
sync and async; the fault plan rides in the run context, never on the instance."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.tools import StructuredTool, tool

from middleware import (
    FaultInjectionMiddleware,
    FaultPlan,
    build_tool_chain,
    check_contract,
    policy_tools,
)
from middleware.adapters.scripted_model import SearchThenAnswerModel
from simulator.corpus import Labels, Task
from simulator.endpoints import PolicyEnvironment
from simulator.errors import UsageError
from tests.middleware.conftest import run_record


@pytest.fixture(scope="module")
def agent(env: PolicyEnvironment) -> Any:
    return create_agent(SearchThenAnswerModel(), tools=policy_tools(env),
                        middleware=[FaultInjectionMiddleware()], context_schema=FaultPlan)


def _tool_payload(state: dict[str, Any]) -> Any:
    content = state["messages"][2].content
    return json.loads(content) if content else None


def _plan(scenario: str, record: tuple[Task, Labels], **kw: Any) -> FaultPlan:
    task, labels = record
    return FaultPlan(scenario=scenario, task=task, **kw)


@pytest.mark.parametrize("scenario", ["clean", "stale_index", "schema_drift",
                                      "partial_timeout", "missing_tool_output",
                                      "permission_denied", "wrong_session",
                                      "conflicting_evidence", "corrupted_metadata"])
def test_the_tool_message_is_what_the_scenario_chain_returns(
        agent: Any, env: PolicyEnvironment, records: list[tuple[Task, Labels]],
        scenario: str) -> None:
    task, labels = records[4]
    state = agent.invoke({"messages": [("user", task.question)]},
                         context=_plan(scenario, records[4]))
    expected = run_record(build_tool_chain(scenario, env), task, labels)
    assert _tool_payload(state) == (expected if expected is not None else None)


def test_async_runs_inject_the_same_faults(agent: Any, records: list[tuple[Task, Labels]]
                                           ) -> None:
    task, _ = records[0]

    async def both() -> list[dict[str, Any]]:
        return list(await asyncio.gather(*(
            agent.ainvoke({"messages": [("user", task.question)]},
                          context=_plan(name, records[0]))
            for name in ("schema_drift", "clean"))))

    drifted, clean = asyncio.run(both())
    assert _tool_payload(drifted)["schema_version"] == "3"
    assert _tool_payload(clean)["schema_version"] == "2"
    sync = agent.invoke({"messages": [("user", task.question)]},
                        context=_plan("schema_drift", records[0]))
    assert _tool_payload(drifted) == _tool_payload(sync)


def test_the_agent_answers_from_what_the_fault_left(agent: Any,
                                                    records: list[tuple[Task, Labels]]
                                                    ) -> None:
    task, _ = records[0]
    answers = {name: agent.invoke({"messages": [("user", task.question)]},
                                  context=_plan(name, records[0]))["messages"][-1].content
               for name in ("clean", "schema_drift", "missing_tool_output")}
    assert answers["clean"].endswith("]")
    assert "unexpected shape (schema 3)" in answers["schema_drift"]
    assert "nothing usable" in answers["missing_tool_output"]


def test_a_run_without_a_plan_is_untouched(env: PolicyEnvironment,
                                           records: list[tuple[Task, Labels]]) -> None:
    task, _ = records[0]
    agent = create_agent(SearchThenAnswerModel(), tools=policy_tools(env, session=task.session),
                         middleware=[FaultInjectionMiddleware()])
    state = agent.invoke({"messages": [("user", task.question)]})
    assert _tool_payload(state) == env.search_policies(task.question, task.session)


def test_the_plan_may_ride_in_a_users_own_context(env: PolicyEnvironment,
                                                  records: list[tuple[Task, Labels]]) -> None:
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class MyContext:
        user: str
        fault_plan: FaultPlan

    agent = create_agent(SearchThenAnswerModel(), tools=policy_tools(env),
                         middleware=[FaultInjectionMiddleware()], context_schema=MyContext)
    task, _ = records[0]
    state = agent.invoke({"messages": [("user", task.question)]},
                         context=MyContext("ada", _plan("schema_drift", records[0])))
    assert _tool_payload(state)["schema_version"] == "3"


def test_the_middleware_keeps_no_per_run_state(agent: Any,
                                               records: list[tuple[Task, Labels]]) -> None:
    task, _ = records[0]
    first = agent.invoke({"messages": [("user", task.question)]},
                         context=_plan("partial_timeout", records[0], seed=1))
    agent.invoke({"messages": [("user", task.question)]},
                 context=_plan("wrong_session", records[0], seed=5))
    again = agent.invoke({"messages": [("user", task.question)]},
                         context=_plan("partial_timeout", records[0], seed=1))
    assert _tool_payload(first) == _tool_payload(again)


def test_endpoint_faults_on_a_tool_that_cannot_honour_them_fail_loudly(
        records: list[tuple[Task, Labels]]) -> None:
    @tool
    def search_policies(query: str) -> str:
        """Search my own index."""
        return json.dumps({"schema_version": "2", "hits": []})

    agent = create_agent(SearchThenAnswerModel(), tools=[search_policies],
                         middleware=[FaultInjectionMiddleware()], context_schema=FaultPlan)
    task, _ = records[0]
    with pytest.raises(UsageError, match="fault stale_index changes the endpoint's state.* "
                                         "tool 'search_policies' cannot honour"):
        agent.invoke({"messages": [("user", task.question)]},
                     context=_plan("stale_index", records[0]))
    drifted = agent.invoke({"messages": [("user", task.question)]},
                           context=_plan("schema_drift", records[0]))
    assert _tool_payload(drifted) == {"schema_version": "3", "request": {
        "query": None, "session": None, "tenant": None}, "results": [],
        "index": {"snapshot": None, "built_year": None, "document_count": None},
        "completeness": {"partial": False, "missing_shards": []},
        "access": {"denied": False, "withheld": 0, "reason": None}, "notes": []}


def test_a_users_tool_name_can_play_the_search_role(env: PolicyEnvironment,
                                                    records: list[tuple[Task, Labels]]) -> None:
    @tool
    def find_rules(query: str) -> str:
        """Search my own index."""
        task = records[0][0]
        return json.dumps(env.search_policies(query, task.session))

    model = SearchThenAnswerModel(tool_name="find_rules")
    agent = create_agent(model, tools=[find_rules], context_schema=FaultPlan,
                         middleware=[FaultInjectionMiddleware({"find_rules": "search_policies"})])
    task, _ = records[0]
    state = agent.invoke({"messages": [("user", task.question)]},
                         context=_plan("schema_drift", records[0]))
    repaired = check_contract(_tool_payload(state), "repair")
    assert repaired.valid and repaired.repairs


def _own_tool_agent(output: Any, calls: list[str], **meta: Any) -> Any:
    def find_rules(query: str) -> str:
        calls.append(query)
        return output if isinstance(output, str) else json.dumps(output)

    own = StructuredTool.from_function(find_rules, description="Search my own index.",
                                       metadata=meta or None)
    return create_agent(SearchThenAnswerModel(tool_name="find_rules"), tools=[own],
                        context_schema=FaultPlan,
                        middleware=[FaultInjectionMiddleware({"find_rules": "search_policies"})])


@pytest.mark.parametrize(("scenario", "fault", "flag"), [
    ("stale_index", "stale_index", False),
    ("permission_denied", "permission_denied", False),
    ("wrong_session", "wrong_session", True),  # it reads conditions, but has no environment
])
def test_a_fault_that_cannot_act_on_a_users_tool_is_refused_before_any_call(
        records: list[tuple[Task, Labels]], scenario: str, fault: str, flag: bool) -> None:
    calls: list[str] = []
    meta = {"layerrag_conditions": True} if flag else {}
    agent = _own_tool_agent({"results": []}, calls, **meta)
    with pytest.raises(UsageError) as refused:
        agent.invoke({"messages": [("user", records[0][0].question)]},
                     context=_plan(scenario, records[0]))
    line = str(refused.value)
    assert "\n" not in line and f"fault {fault} " in line and "tool 'find_rules'" in line
    assert calls == []  # refused at the first model call, before the tool ran


def test_schema_drift_drifts_a_users_own_json_generically(
        records: list[tuple[Task, Labels]]) -> None:
    own = {"version": 4, "documents": [{"doc_id": "a1", "page_content": "Refunds in 30 days.",
                                        "effective_year": 2024, "owner_team": "billing"}]}
    state = _own_tool_agent(own, []).invoke({"messages": [("user", records[0][0].question)]},
                                            context=_plan("schema_drift", records[0]))
    assert _tool_payload(state) == {"schema_version": "5", "data": {"results": [
        {"id": "a1", "body": "Refunds in 30 days.", "effectiveYear": "2024",
         "ownerTeam": "billing"}]}}


def test_schema_drift_on_text_output_is_refused_naming_the_tool(
        records: list[tuple[Task, Labels]]) -> None:
    agent = _own_tool_agent("Refunds are issued within 30 days.", [])
    with pytest.raises(UsageError, match="tool 'find_rules': fault 'schema_drift' cannot act "
                                         "on a tool output that is not JSON"):
        agent.invoke({"messages": [("user", records[0][0].question)]},
                     context=_plan("schema_drift", records[0]))
    clean = agent.invoke({"messages": [("user", records[0][0].question)]},
                         context=_plan("clean", records[0]))
    assert clean["messages"][2].content == "Refunds are issued within 30 days."


def test_retries_count_as_later_attempts(env: PolicyEnvironment,
                                         records: list[tuple[Task, Labels]]) -> None:
    from langchain_core.messages import ToolMessage

    from middleware.adapters.langchain_agent import _calls_before

    state = {"messages": [ToolMessage("x", tool_call_id="1", name="search_policies"),
                          ToolMessage("y", tool_call_id="2", name="fetch_document")]}
    assert _calls_before(state, "search_policies") == 1
    assert FaultPlan(attempt=2).fault_context(1).attempt == 3


def test_a_composed_scenario_can_be_planned(agent: Any, env: PolicyEnvironment,
                                            records: list[tuple[Task, Labels]]) -> None:
    from middleware import compose

    scenario = compose("drifted_partial", "schema_drift", "partial_timeout",
                       layer="contract", answerable=True)
    task, labels = records[2]
    state = agent.invoke({"messages": [("user", task.question)]},
                         context=_plan(scenario, records[2]))
    assert _tool_payload(state) == run_record(build_tool_chain(scenario, env), task, labels)
