"""``layerrag view`` of a cases run: one self-contained page, conversation by conversation.

A cases run is read as conversations, not records: the single-turn page's S heatmap would
count a clarifying question or a refusal on a turn that has no value as a failure. So a cases
run gets its own page (``cases_page.html``, sharing the single-turn page's style, trajectory
rendering and packing through simulator/report/view.py): a heatmap of resolved
conversations by scenario and mode per arm, the cases report's own tables (rendered from the
same Markdown as ``layerrag report RUN``, so the page never disagrees with the report), and a
case browser where a conversation opens turn by turn beside its clean twin, turn aligned to
turn. The conversations come from simulator/report/cases_conversations.py.

An archive of a cases run keeps no messages, replies or trajectories (they are
evaluator-side), so its page shows the aggregates only and says why.
"""

from __future__ import annotations

import html
from typing import Any

from simulator.report.cases import CasesReport, Rate
from simulator.report.cases_conversations import Conversations
from simulator.report.cases_markdown import render_cases_report
from simulator.report.view import fill, markdown_html, pack, page_template, script_json

CASES_TEMPLATE = "cases_page.html"
ARCHIVE_NOTE = ("This page was made from an archive of a cases run, which keeps no "
                "messages, replies or trajectories (they are evaluator-side): aggregates "
                "only. View the run directory to read its conversations turn by turn.")


def cases_heatmaps(report: CasesReport) -> list[dict[str, Any]]:
    """Per arm: each scenario x mode cell's resolved and safe-throughout conversations
    (k of n, n excluding the incomplete ones, as the report's rates do)."""
    arms = list(dict.fromkeys(c.arm for c in report.cases))
    return [{"arm": arm, "cells": [
        {"scenario": c.scenario, "mode": c.contract_mode, "resolved": _count(c.resolved),
         "safe": _count(c.safe), "cases": c.cases, "incomplete": c.incomplete}
        for c in report.cases if c.arm == arm]} for arm in arms]


def _count(rate: Rate) -> dict[str, int]:
    return {"k": rate.k, "n": rate.n}


def build_cases_page(report: CasesReport, *, title: str,
                     conversations: Conversations | None) -> str:
    """The whole page as one string; ``conversations`` None for an archive (aggregates
    only, with :data:`ARCHIVE_NOTE`)."""
    data: dict[str, Any] = {
        "title": title, "heatmaps": cases_heatmaps(report), "schedule": report.schedule,
        "total": conversations.total if conversations else 0,
        "turns": conversations.turns if conversations else 0,
        "sampled": conversations.sampled if conversations else False,
        "archive_note": None if conversations else ARCHIVE_NOTE}
    rows = None if conversations is None else [
        c.model_dump(mode="json") for c in conversations.shown]
    return fill(page_template(CASES_TEMPLATE), {
        "TITLE": html.escape(title),
        "TABLES": markdown_html(render_cases_report(report)),
        "META": script_json(data),
        "CONVERSATIONS": "" if rows is None else pack(rows)})
