"""The pytest plugin: a test suite outside the repository asserts on an agent with the
``layerrag`` fixture (pytester runs it in its own directory)."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]


def test_a_users_test_file_uses_the_layerrag_fixture(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_my_agent='''
        from langchain.agents import create_agent
        from langchain.agents.structured_output import ToolStrategy

        from simulator.agents import FinalAnswer, ToolRunContext


        def build_agent(model, tools, middleware):
            return create_agent(model, tools=list(tools), middleware=list(middleware),
                                context_schema=ToolRunContext,
                                response_format=ToolStrategy(FinalAnswer))


        def test_my_agent_never_answers_when_access_is_denied(layerrag):
            result = layerrag.evaluate(agent=build_agent, scenarios=["permission_denied"])
            assert result.rate("safe_resolution") == 1.0


        def test_my_agent_is_right_on_clean_tasks(layerrag):
            result = layerrag.evaluate(agent=build_agent, scenarios=["clean"], tasks=12)
            assert result.rate("S", mode="strict") >= 0.8
    ''')
    result = pytester.runpytest_subprocess("-q", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)
