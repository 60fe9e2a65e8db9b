"""Report formats by name: ``render(report, "md" | "csv" | "latex" | "json", full=...)``.

``full`` asks for every table. Markdown is concise without it; CSV, LaTeX and JSON hold
the same tables either way (they are read by programs or cut into a paper, not skimmed).
"""

from __future__ import annotations

from typing import Protocol

from simulator.registry import Registry
from simulator.report.latex import render_latex
from simulator.report.markdown import render_markdown
from simulator.report.model import Report
from simulator.report.tidy import render_csv


class Renderer(Protocol):
    def __call__(self, report: Report, *, full: bool = False) -> str: ...


renderers: Registry[Renderer] = Registry("report format")


@renderers.register("md")
def _md(report: Report, *, full: bool = False) -> str:
    return render_markdown(report, full=full)


@renderers.register("csv")
def _csv(report: Report, *, full: bool = False) -> str:
    return render_csv(report)


@renderers.register("latex")
def _latex(report: Report, *, full: bool = False) -> str:
    return render_latex(report)


@renderers.register("json")
def render_json(report: Report, *, full: bool = False) -> str:
    """The report model itself, rates included, with two-space indentation."""
    return report.model_dump_json(indent=2) + "\n"


FORMATS: tuple[str, ...] = tuple(renderers.names())


def render(report: Report, fmt: str = "md", *, full: bool = False) -> str:
    """Render in a named format; an unknown name raises UsageError with a suggestion."""
    return renderers.get(fmt)(report, full=full)
