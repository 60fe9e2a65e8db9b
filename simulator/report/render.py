"""Report formats by name: ``render(report, "md" | "csv" | "latex" | "json")``."""

from __future__ import annotations

from collections.abc import Callable

from simulator.registry import Registry
from simulator.report.latex import render_latex
from simulator.report.markdown import render_markdown
from simulator.report.model import Report
from simulator.report.tidy import render_csv

Renderer = Callable[[Report], str]

renderers: Registry[Renderer] = Registry("report format")


@renderers.register("md")
def _md(report: Report) -> str:
    return render_markdown(report)


@renderers.register("csv")
def _csv(report: Report) -> str:
    return render_csv(report)


@renderers.register("latex")
def _latex(report: Report) -> str:
    return render_latex(report)


@renderers.register("json")
def render_json(report: Report) -> str:
    """The report model itself, rates included, with two-space indentation."""
    return report.model_dump_json(indent=2) + "\n"


FORMATS: tuple[str, ...] = tuple(renderers.names())


def render(report: Report, fmt: str = "md") -> str:
    """Render in a named format; an unknown name raises UsageError with a suggestion."""
    return renderers.get(fmt)(report)
