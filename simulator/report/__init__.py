"""Reports: every aggregate of a run or an archive, as tables and plots.

One code path: archive rows -> :func:`build_report` -> :class:`Report` -> :func:`render`
(md, csv, latex, json) and :func:`write_plots`.
"""

from simulator.report.build import build_report, report_from_archive, report_from_store
from simulator.report.model import Report
from simulator.report.plots import write_plots
from simulator.report.render import FORMATS, render, renderers

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
