"""A tool-calling agent's tool use is counted in the report (issue 27, item 7): records that
called no tool (agent errors) and records that answered without searching, per cell; a
report from an archive says the counts are not kept rather than printing zeros."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

from simulator.agents import FinalAnswer, current_run
from simulator.archive.export import archive_from_store
from simulator.report.build import build_report, report_from_store
from simulator.report.markdown import render_markdown
from simulator.testing import evaluate


class _Erratic:
    """Searches on rows 0, 3, 6, ...; fetches a document by id and answers on rows 1, 4,
    ...; answers with no tool call at all on rows 2, 5, ... (the probe record is row 0)."""

    def __init__(self, tools: Sequence[Any]) -> None:
        self.tools = {t.name: t for t in tools}

    def invoke(self, inputs: dict[str, Any], **_: Any) -> dict[str, Any]:
        ctx = current_run()
        assert ctx is not None
        row = ctx.task.row % 3
        messages: list[BaseMessage] = list(inputs["messages"])
        if row == 0:
            self.tools["search_policies"].invoke({"query": ctx.task.question})
        elif row == 1:
            self.tools["fetch_document"].invoke({"doc_id": "doc_000000000000"})
        messages.append(AIMessage("30 days"))
        return {"messages": messages, "structured_response": FinalAnswer(
            answer="30 days", citations=[], abstain=False, reason=None)}


def erratic(model: Any, tools: Sequence[Any], middleware: Sequence[Any]) -> Any:
    return _Erratic(tools)


def test_tool_use_is_counted_per_cell(tmp_path: Path) -> None:
    evaluate(erratic, scenarios=("clean",), modes=("strict",), tasks=9, out=tmp_path / "r")
    report = report_from_store(tmp_path / "r", replicates=50)
    assert report.tool_use is not None
    (cell,) = report.tool_use.cells
    assert (cell.records, cell.called_no_tool, cell.answered_without_searching) == (9, 3, 3)
    text = render_markdown(report)
    assert "3 record(s) called no tool (agent errors); 3 answered without searching." in text
    assert "| clean | strict | 9 | 3 | 3 |" in text


def test_an_archive_says_tool_use_is_not_kept(tmp_path: Path) -> None:
    evaluate(erratic, scenarios=("clean",), modes=("strict",), tasks=3, out=tmp_path / "r")
    archive = archive_from_store(tmp_path / "r")
    report = build_report(archive.rows, header=archive.header, replicates=50)
    assert report.tool_use is None
    assert "Not kept in archives" in render_markdown(report)


def test_a_pipeline_report_has_no_tool_use_section(tmp_path: Path) -> None:
    evaluate("pipeline", tasks=2, out=tmp_path / "p")
    report = report_from_store(tmp_path / "p", replicates=50)
    assert report.tool_use is None and "## Tool use" not in render_markdown(report)


def test_an_abstention_keeps_what_the_agent_said() -> None:
    def abstains_with_a_value(model: Any, tools: Sequence[Any], middleware: Any) -> Any:
        class Loop:
            def invoke(self, inputs: dict[str, Any], **_: Any) -> dict[str, Any]:
                ctx = current_run()
                assert ctx is not None
                tools[0].invoke({"query": ctx.task.question})
                return {"messages": [HumanMessage("q"), AIMessage("")],
                        "structured_response": FinalAnswer(
                            answer="30 days", citations=["doc_1"], abstain=True,
                            reason="the versions disagree")}
        return Loop()

    (record,) = evaluate(abstains_with_a_value, tasks=1, modes=("strict",)).records
    assert record.abstained and not record.S and not record.E and not record.G
    assert (record.answer, record.citations, record.reason) == (
        "30 days", ("doc_1",), "the versions disagree")
