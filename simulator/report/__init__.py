"""Reports: every aggregate of a run or an archive, as tables and plots.

One code path: archive rows -> :func:`build_report` -> :class:`Report` -> :func:`render`
(md, csv, latex, json) and :func:`write_plots`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from simulator.report.build import build_report, report_from_archive, report_from_store
from simulator.report.model import Report
from simulator.report.render import FORMATS, render, renderers

if TYPE_CHECKING:
    from simulator.report.plots import write_plots


def __getattr__(name: str) -> Any:
    """``write_plots`` on first use: importing matplotlib costs more than a whole report,
    and ``--help`` or a Markdown report never draws."""
    if name == "write_plots":
        from simulator.report.plots import write_plots

        return write_plots
    raise AttributeError(f"module 'simulator.report' has no attribute {name!r}")


__all__ = [
    "FORMATS",
    "Report",
    "build_report",
    "render",
    "renderers",
    "report_from_archive",
    "report_from_store",
    "write_plots",
]
