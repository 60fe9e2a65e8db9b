"""How a tool-calling agent used its tools, per scenario and mode: the records that called no
tool at all (agent errors) and those that answered without any call reaching the search
endpoint.

A model that answers in one token without a tool call, or fetches a document by id and
answers from it, is a behaviour a user needs counted, not found in one record's trace
(issue 27). The counts come from the run store's traces and reasons, which archives do not
keep: a report recomputed from an archive says so instead of printing zeros.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

from simulator.report.formatting import markdown_table
from simulator.runner.record import RunRecord
from simulator.scoring.outcome import answered_without_searching, called_no_tool


class ToolUseCell(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    arm: str
    scenario: str
    contract_mode: str
    records: int
    called_no_tool: int
    """Agent errors: the run finished without reaching any of layerrag's tools."""
    answered_without_searching: int
    """Finished, answered, and no call reached the search endpoint."""


class ToolUseSection(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    cells: list[ToolUseCell]

    @property
    def called_no_tool(self) -> int:
        return sum(c.called_no_tool for c in self.cells)

    @property
    def answered_without_searching(self) -> int:
        return sum(c.answered_without_searching for c in self.cells)


def tool_use_section(records: Iterable[RunRecord]) -> ToolUseSection:
    """The counts of every arm x scenario x mode cell, in record order."""
    cells: dict[tuple[str, str, str], list[int]] = {}
    for r in records:
        counts = cells.setdefault((r.arm, r.scenario, r.contract_mode), [0, 0, 0])
        tools = [str(c.get("tool")) for c in r.trace.get("tool_calls") or []]
        errored = r.agent_error or r.provider_error or r.reader_error
        counts[0] += 1
        counts[1] += called_no_tool(r.agent_error, r.reason)
        counts[2] += answered_without_searching(errored, r.abstained, tools)
    return ToolUseSection(cells=[
        ToolUseCell(arm=arm, scenario=scenario, contract_mode=mode, records=n,
                    called_no_tool=none, answered_without_searching=unsearched)
        for (arm, scenario, mode), (n, none, unsearched) in cells.items()])


def render_tool_use(section: ToolUseSection | None, agent: str, *, full: bool) -> list[str]:
    """One line when every record searched; the per-cell table when some did not (always
    with ``full``); for a tool-calling agent's archive, that the counts are not kept."""
    if agent == "pipeline":
        return []
    title = ["## Tool use", ""]
    if section is None:
        return [*title, "Not kept in archives (they hold no traces); `layerrag report "
                "RUN_DIR` counts the records that called no tool or answered without "
                "searching.", ""]
    line = (f"{section.called_no_tool} record(s) called no tool (agent errors); "
            f"{section.answered_without_searching} answered without searching.")
    if not full and not (section.called_no_tool or section.answered_without_searching):
        return [*title, line, ""]
    several = len({c.arm for c in section.cells}) > 1
    rows = [[*([c.arm] if several else []), c.scenario, c.contract_mode, str(c.records),
             str(c.called_no_tool), str(c.answered_without_searching)]
            for c in section.cells if full or c.called_no_tool or c.answered_without_searching]
    header = [*(["arm"] if several else []), "scenario", "mode", "records", "called no tool",
              "answered without searching"]
    return [*title, line, "", *markdown_table(header, rows, ("l" if several else "") + "llrrr")]
