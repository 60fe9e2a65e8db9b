"""Bring-your-own agents: a factory by MODULE:CALLABLE, and agents that misbehave are
records with a reason, never a crashed run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage

from simulator.archive import archive_from_store
from simulator.errors import UsageError
from simulator.runner.record import RunRecord
from simulator.testing import evaluate

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "simulator.cli.main", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_the_example_agent_runs_from_the_command_line_and_its_archive_says_so(
        tmp_path: Path) -> None:
    out = tmp_path / "custom"
    done = _cli("run", "--agent", "examples.custom_agent:build_agent", "--tasks", "24",
                "--scenarios", "clean,schema_drift,permission_denied", "--out", str(out),
                "--format", "none", "--no-progress")
    assert done.returncode == 0, done.stderr
    archive = archive_from_store(out)
    assert archive.header.agent == "examples.custom_agent:build_agent"
    assert {row.agent for row in archive.rows} == {"examples.custom_agent:build_agent"}
    drift = [r for r in archive.rows if r.scenario == "schema_drift"]
    assert not any(r.S for r in drift if r.contract_mode == "strict")
    assert any(r.S for r in drift if r.contract_mode == "repair")


def test_the_example_rewrites_the_query_the_search_tool_receives() -> None:
    from examples.custom_agent import keywords

    assert keywords("How long is the return window for opened electronics?") == \
        "return window opened electronics"


@pytest.mark.parametrize(("agent", "says"), [
    ("reakt", "Did you mean: react?"),
    ("no_such_module:build", "cannot import module 'no_such_module'"),
    ("examples.custom_agent:missing", "has no callable 'missing'"),
])
def test_a_bad_agent_is_one_line_and_exit_2(tmp_path: Path, agent: str, says: str) -> None:
    done = _cli("run", "--agent", agent, "--tasks", "1", "--out", str(tmp_path / "r"))
    assert done.returncode == 2
    assert says in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "r").exists()


def test_the_open_pipeline_is_refused_for_a_tool_calling_agent(tmp_path: Path) -> None:
    done = _cli("run", "--agent", "react", "--pipeline", "open", "--tasks", "1",
                "--out", str(tmp_path / "r"))
    assert done.returncode == 2 and "applies to the pipeline agent only" in done.stderr


# -- agents that misbehave ---------------------------------------------------------------


def _searching_then(final: Any, *, from_record: int = 0) -> Any:
    """A factory whose agent searches once, then ends with ``final(messages)`` (an
    AIMessage); before its ``from_record``-th run it answers as the react driver does, so
    it passes the preflight probe and misbehaves in the matrix."""
    from simulator.agents.tool_model import DeterministicToolCallingModel

    runs = {"n": 0}

    class Then(DeterministicToolCallingModel):
        def _next(self, messages: list[Any], tools: Any, tool_choice: Any = None) -> AIMessage:
            if not any(m.type == "tool" for m in messages):
                runs["n"] += 1
                return self._call(messages, "search_policies", {"query": "policy"})
            if runs["n"] <= from_record:
                return super()._next(messages, tools, tool_choice)
            return final(messages)

    def factory(model: Any, tools: Any, middleware: Any) -> Any:
        return create_agent(Then(), tools=list(tools), middleware=list(middleware))

    return factory


def _chatty(model: Any, tools: Any, middleware: Any) -> Any:
    """Answers in prose at once, never calling a tool."""
    fake = GenericFakeChatModel(messages=iter([AIMessage("30 days [RET-01-v2]")] * 1000))
    return create_agent(fake, tools=[], middleware=list(middleware))


def _looping(model: Any, tools: Any, middleware: Any) -> Any:
    """Searches forever."""
    from simulator.agents.tool_model import DeterministicToolCallingModel

    class Looping(DeterministicToolCallingModel):
        def _next(self, messages: list[Any], tools: Any, tool_choice: Any = None) -> AIMessage:
            return self._call(messages, "fetch_document", {"doc_id": f"d{len(messages)}"})

    return create_agent(Looping(), tools=list(tools), middleware=list(middleware))


def _raising(model: Any, tools: Any, middleware: Any) -> Any:
    """Builds a graph whose every run raises."""

    class Broken:
        def invoke(self, *args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("my agent is broken")

        async def ainvoke(self, *args: Any, **kwargs: Any) -> Any:
            raise RuntimeError("my agent is broken")

    return Broken()


def _records(agent: Any, tasks: int = 3) -> list[RunRecord]:
    return list(evaluate(agent, scenarios=["clean"], modes=["strict"], tasks=tasks).records)


@pytest.mark.parametrize(("agent", "says"), [
    (_chatty, "the agent called none of the tools it was given"),
    (_looping, "the agent exceeded its step budget of 40"),
    (_raising, "the agent raised RuntimeError: my agent is broken"),
])
def test_a_broken_agent_is_refused_by_the_preflight_probe(agent: Any, says: str) -> None:
    with pytest.raises(UsageError, match="the probe record") as refused:
        _records(agent)
    assert says in str(refused.value)


def test_an_agent_that_breaks_after_the_probe_is_an_agent_error_never_safe() -> None:
    def boom(messages: list[Any]) -> AIMessage:
        raise RuntimeError("my agent is broken")

    records = _records(_searching_then(boom, from_record=1))
    assert len(records) == 3
    assert all(r.agent_error and not r.abstained and not r.safe_resolution and not r.S
               for r in records)
    assert {r.failure_layer for r in records} == {"agent"}
    assert {r.reason for r in records} == {"the agent raised RuntimeError: my agent is broken"}


def test_evaluate_refuses_an_unknown_metric() -> None:
    result = evaluate("react", scenarios=["clean"], modes=["strict"], tasks=2)
    with pytest.raises(UsageError, match="unknown metric"):
        result.rate("accuracy")
    assert result.rate("S", scenario="clean") in (0.0, 0.5, 1.0)
    assert list(result.table()) == [("clean", "strict", "uncontrolled")]


def _off_schema(model: Any, tools: Any, middleware: Any) -> Any:
    """Searches, then returns a structured response that is not a FinalAnswer."""
    inner = _searching_then(lambda messages: AIMessage("done"))(model, tools, middleware)

    class OffSchema:
        async def ainvoke(self, *args: Any, **kwargs: Any) -> Any:
            final = await inner.ainvoke(*args, **kwargs)
            return {**final, "structured_response": {"value": 30}}

    return OffSchema()


@pytest.mark.parametrize("agent", [
    _searching_then(lambda messages: AIMessage(""), from_record=1), _off_schema])
def test_unparseable_final_output_is_a_reader_error_never_a_safe_non_answer(
        agent: Any) -> None:
    if agent is _off_schema:  # unparseable from the first record: the probe refuses it
        with pytest.raises(UsageError, match="structured response is not a FinalAnswer"):
            _records(agent)
        return
    records = _records(agent)
    assert len(records) == 3
    assert all(r.reader_error and not r.abstained and not r.safe_resolution
               for r in records)
    assert {r.failure_layer for r in records} == {"reader"}


def test_a_prose_answer_is_still_an_answer_not_a_reader_error() -> None:
    records = _records(_searching_then(lambda messages: AIMessage("30 days [doc_x]")))
    assert records and not any(r.reader_error or r.agent_error for r in records)
    assert {r.answer for r in records} == {"30 days"}
