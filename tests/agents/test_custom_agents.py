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


def _chatty(model: Any, tools: Any, middleware: Any) -> Any:
    """Answers in prose at once, never calling a tool."""
    fake = GenericFakeChatModel(messages=iter([AIMessage("30 days [RET-01-v2]")] * 1000))
    return create_agent(fake, tools=[], middleware=list(middleware))


def _looping(model: Any, tools: Any, middleware: Any) -> Any:
    """Searches forever."""
    from simulator.agents.tool_model import DeterministicToolCallingModel

    class Looping(DeterministicToolCallingModel):
        def _next(self, messages: list[Any], tools: set[Any]) -> AIMessage:
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


def _records(agent: Any) -> list[RunRecord]:
    return list(evaluate(agent, scenarios=["clean"], modes=["strict"], tasks=3).records)


def test_an_agent_that_calls_no_tool_is_scored_not_crashed() -> None:
    records = _records(_chatty)
    assert len(records) == 3
    assert all(not r.V and not r.S for r in records)
    assert all(r.trace["terminated"] == "the agent called no tool" for r in records)


def test_an_agent_that_loops_stops_at_its_step_budget() -> None:
    records = _records(_looping)
    assert all(r.abstained and not r.S for r in records)
    assert all("step budget" in r.trace["terminated"] for r in records)


def test_an_agent_that_raises_is_a_record_with_the_error() -> None:
    records = _records(_raising)
    assert all("RuntimeError: my agent is broken" in r.trace["terminated"] for r in records)


def test_evaluate_refuses_an_unknown_metric() -> None:
    result = evaluate("react", scenarios=["clean"], modes=["strict"], tasks=2)
    with pytest.raises(UsageError, match="unknown metric"):
        result.rate("accuracy")
    assert result.rate("S", scenario="clean") in (0.0, 0.5, 1.0)
    assert list(result.table()) == [("clean", "strict", "uncontrolled")]


def _speechless(model: Any, tools: Any, middleware: Any) -> Any:
    """Ends with an empty message: neither an answer nor an abstention."""
    fake = GenericFakeChatModel(messages=iter([AIMessage("")] * 1000))
    return create_agent(fake, tools=[], middleware=list(middleware))


def _off_schema(model: Any, tools: Any, middleware: Any) -> Any:
    """Returns a structured response that is not a FinalAnswer."""

    class OffSchema:
        def invoke(self, *args: Any, **kwargs: Any) -> Any:
            return {"messages": [AIMessage("done")], "structured_response": {"value": 30}}

        async def ainvoke(self, *args: Any, **kwargs: Any) -> Any:
            return self.invoke()

    return OffSchema()


@pytest.mark.parametrize("agent", [_speechless, _off_schema])
def test_unparseable_final_output_is_a_reader_error_never_a_safe_non_answer(
        agent: Any) -> None:
    records = _records(agent)
    assert len(records) == 3
    assert all(r.reader_error and not r.abstained and not r.safe_resolution
               for r in records)
    assert {r.failure_layer for r in records} == {"reader"}


def test_a_prose_answer_is_still_an_answer_not_a_reader_error() -> None:
    assert not any(r.reader_error for r in _records(_chatty))
