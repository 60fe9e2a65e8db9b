"""``layerrag view``: one self-contained HTML page of a run (or several, or an archive).

The page is for a person who wants to see, in a browser, what ``layerrag report`` and
``layerrag show`` say: the S heatmap by scenario and mode per arm, the report's own tables
(the same Report model, rendered from its Markdown, so the page never disagrees with the
report), and a record browser whose filters and trajectory panels run in the page.

It must open by double-click with no network: the stylesheet and script are inlined
(``view_page.html`` beside this module, with ``view_common.css`` and ``view_common.js``,
which the cases page shares) and the records travel inside the file as gzip'd JSON in
base64, which the page inflates with the browser's own ``DecompressionStream``.
That keeps a full 4,320-record run well under its 10 MB bound (a trajectory is ~2.5 KB of
very repetitive JSON). Above :data:`RECORD_CAP` records the page carries a deterministic
sample and says so. An archive has no trajectories (they are evaluator-side): its page
shows the aggregates only, and says why. A cases run has its own page
(simulator/report/cases_view.py), built from the helpers here.
"""

from __future__ import annotations

import base64
import gzip
import html
import json
import random
import re
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from simulator.report.model import Report
from simulator.runner.store import RunStore

RECORD_CAP = 20_000
"""The most records a page carries; above it a seeded sample of this many is kept."""
PAGE_TEMPLATE = "view_page.html"
_FIELDS = ("run_id", "model", "scenario", "contract_mode", "arm", "task_id", "task_row", "agent",
           "S", "E", "R", "G", "V", "safe_resolution", "failure_layer", "abstained")


def markdown_html(text: str) -> str:
    """The report's Markdown as HTML: headings, pipe tables, bullets and paragraphs (all
    the report writes), every text escaped."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("#"):
            level = min(len(line) - len(line.lstrip("#")) + 1, 6)
            out.append(f"<h{level}>{_inline(line.lstrip('#').strip())}</h{level}>")
        elif line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append([c.strip() for c in lines[i].strip().strip("|").split("|")])
                i += 1
            body = [r for r in rows[1:] if not all(re.fullmatch(r":?-+:?", c) for c in r)]
            out.append("<table><thead><tr>" + "".join(f"<th>{_inline(c)}</th>"
                                                      for c in rows[0]) + "</tr></thead><tbody>"
                       + "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r)
                                 + "</tr>" for r in body) + "</tbody></table>")
            continue
        elif line.startswith("- "):
            items = []
            while i < len(lines) and lines[i].startswith("- "):
                items.append(f"<li>{_inline(lines[i][2:])}</li>")
                i += 1
            out.append("<ul>" + "".join(items) + "</ul>")
            continue
        elif line.strip():
            out.append(f"<p>{_inline(line)}</p>")
        i += 1
    return "\n".join(out)


def _inline(text: str) -> str:
    escaped = html.escape(text)
    escaped = re.sub(r"`([^`]+)`", r"<code>\1</code>", escaped)
    return re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", escaped)


def heatmaps(report: Report) -> list[dict[str, Any]]:
    """Per arm: the S rate (and safe rate, records) of each scenario x mode cell."""
    return [{"arm": arm.arm, "cells": [
        {"scenario": c.scenario, "mode": c.contract_mode, "S": c.success_rate,
         "safe": c.safe_resolution_rate, "records": c.records}
        for c in arm.scenario_modes]} for arm in report.arms]


def run_records(run_dirs: Sequence[Path]) -> tuple[list[list[Any]], int]:
    """Every record of the runs as ``[fields..., trajectory or None]`` rows, at most
    :data:`RECORD_CAP` of them (a seeded sample above it), and how many there were."""
    rows: list[list[Any]] = []
    for run_dir in run_dirs:
        with RunStore(run_dir, create=False) as store:
            paths = store.all_trajectories()
            for record in store.records():
                dumped = record.model_dump(include=set(_FIELDS))
                rows.append([*(dumped.get(f) for f in _FIELDS),
                             json.loads(paths[k]) if (k := record.key.as_str()) in paths
                             else None])
    total = len(rows)
    if total > RECORD_CAP:
        kept = sorted(random.Random(0).sample(range(total), RECORD_CAP))
        rows = [rows[i] for i in kept]
    return rows, total


def build_page(report: Report, *, title: str, records: list[list[Any]] | None,
               total: int, archive_note: str | None = None) -> str:
    """The whole page as one string."""
    from simulator.report.render import render

    data: dict[str, Any] = {"title": title, "fields": [*_FIELDS, "trajectory"],
                            "heatmaps": heatmaps(report), "total": total,
                            "sampled": records is not None and len(records) < total,
                            "archive_note": archive_note}
    return fill(page_template(PAGE_TEMPLATE), {
        "TITLE": html.escape(title),
        "TABLES": markdown_html(render(report, "md", full=True)),
        "META": script_json(data),
        "RECORDS": "" if records is None else pack(records)})


def page_template(name: str) -> str:
    """The template ``name`` beside this module, with the style and script every page
    shares (``view_common.css``, ``view_common.js``) put in its ``{{COMMON_STYLE}}`` and
    ``{{COMMON_SCRIPT}}``."""
    files = resources.files("simulator.report")
    return fill(files.joinpath(name).read_text("utf-8"), {
        "COMMON_STYLE": files.joinpath("view_common.css").read_text("utf-8"),
        "COMMON_SCRIPT": files.joinpath("view_common.js").read_text("utf-8")}, partial=True)


def fill(template: str, values: dict[str, str], *, partial: bool = False) -> str:
    """Every ``{{NAME}}`` of ``template`` replaced by ``values[NAME]`` in one pass, so a
    value that happens to hold ``{{...}}`` (a run's title, a report's text) is never filled
    in turn. With ``partial``, names without a value are left for a later fill."""
    def value(found: re.Match[str]) -> str:
        name = found.group(1)
        if name in values:
            return values[name]
        if partial:
            return found.group(0)
        raise KeyError(f"page template: no value for {{{{{name}}}}}")

    return re.sub(r"\{\{([A-Z_]+)\}\}", value, template)


def pack(rows: Any) -> str:
    """``rows`` as the page carries them: JSON, gzip'd (no timestamp, so the same run gives
    the same bytes), in base64."""
    raw = json.dumps(rows, separators=(",", ":")).encode()
    return base64.b64encode(gzip.compress(raw, compresslevel=9, mtime=0)).decode()


def script_json(data: dict[str, Any]) -> str:
    """JSON safe inside a <script> element (no closing tag can end it early)."""
    return json.dumps(data).replace("</", "<\\/")
