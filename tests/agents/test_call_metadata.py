"""Run metadata on every LangChain call (issue 26, item 8): a LangSmith or Phoenix trace of
a run can be filtered by scenario, contract mode, arm, task row, record and run id, and
nothing evaluator-only rides along."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from langchain.agents import create_agent
from langchain.agents.structured_output import ToolStrategy
from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.tools import BaseTool

from simulator.agent.state import AgentContext
from simulator.agent.steps import agenerate
from simulator.agents import FinalAnswer, ToolRunContext
from simulator.answers.schema import unknown_answer
from simulator.corpus import Corpus
from simulator.readers.base import ReaderInput, ReaderResult
from simulator.readers.call_metadata import call_config, run_metadata
from simulator.testing import evaluate

KEYS = {"layerrag_run_id", "layerrag_scenario", "layerrag_contract_mode", "layerrag_arm",
        "layerrag_task_row", "layerrag_record_key", "layerrag_model", "layerrag_agent"}


class Collector(BaseCallbackHandler):
    """What a tracer sees: each model and tool run's inherited metadata."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, dict[str, Any]]] = []

    def on_chat_model_start(self, serialized: Any, messages: Any, *,
                            metadata: dict[str, Any] | None = None, **_: Any) -> None:
        self.seen.append(("model", dict(metadata or {})))

    def on_tool_start(self, serialized: Any, input_str: str, *,
                      metadata: dict[str, Any] | None = None, **_: Any) -> None:
        self.seen.append(("tool", dict(metadata or {})))


COLLECTOR = Collector()


def traced(model: Any, tools: Sequence[BaseTool], middleware: Sequence[Any]) -> Any:
    graph = create_agent(model, tools=list(tools), middleware=list(middleware),
                         context_schema=ToolRunContext,
                         response_format=ToolStrategy(FinalAnswer))
    return graph.with_config(callbacks=[COLLECTOR])


def test_every_model_and_tool_call_carries_the_records_metadata(corpus: Corpus) -> None:
    COLLECTOR.seen.clear()
    result = evaluate(traced, scenarios=("clean", "stale_index"), modes=("strict", "repair"),
                      tasks=2)
    assert {kind for kind, _ in COLLECTOR.seen} == {"model", "tool"}
    for _, meta in COLLECTOR.seen:
        assert KEYS <= set(meta)
    seen = {(m["layerrag_scenario"], m["layerrag_contract_mode"], m["layerrag_task_row"])
            for _, m in COLLECTOR.seen if m["layerrag_arm"] == "uncontrolled"}
    rows = {str(t.row) for t in corpus.tasks[:2]}
    assert {(s, m, r) for s in ("clean", "stale_index") for m in ("strict", "repair")
            for r in rows} <= seen
    run_ids = {m["layerrag_run_id"] for _, m in COLLECTOR.seen
               if m["layerrag_scenario"] == "stale_index"}
    assert run_ids == {result.records[0].run_id}
    labels = {a for lab in corpus.labels[:2] for a in (*lab.accepted_answers,
                                                         *lab.required_doc_ids)}
    assert not labels & {v for _, m in COLLECTOR.seen for v in m.values()
                         if isinstance(v, str)}


class _Reader:
    """A reader with an async call that notes the config its model call would get."""

    template_version = "t"

    def __init__(self) -> None:
        self.configs: list[dict[str, Any]] = []

    async def aread(self, item: ReaderInput) -> ReaderResult:
        await asyncio.sleep(0)
        self.configs.append(call_config())
        return ReaderResult(answer=unknown_answer("noted"), prompt_hash="h")

    def read(self, item: ReaderInput) -> ReaderResult:  # pragma: no cover - not used
        raise AssertionError("the async path is under test")


def test_the_pipelines_reader_call_carries_its_own_records_metadata(corpus: Corpus) -> None:
    reader = _Reader()

    def context(row: int) -> AgentContext:
        meta = run_metadata(run_id="r1", scenario="clean", contract_mode="strict",
                            arm="uncontrolled", task_row=row, record_key=f"k{row}",
                            model="openai:m", agent="pipeline")
        return AgentContext(task=corpus.tasks[row], chain=None,  # type: ignore[arg-type]
                            contract_mode="strict", reader=reader, metadata=meta)

    episode: Any = {"question": "q", "answer_format": corpus.tasks[0].answer_format,
                    "evidence": [], "notes": []}

    async def both() -> None:  # interleaved, as a batch's records are
        await asyncio.gather(agenerate(episode, context(0)), agenerate(episode, context(1)))

    asyncio.run(both())
    assert sorted(c["metadata"]["layerrag_record_key"] for c in reader.configs) == ["k0", "k1"]
    assert all(c["tags"] == ["layerrag"] for c in reader.configs)
    assert call_config() == {}  # nothing leaks past the record
