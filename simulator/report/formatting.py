"""Number formats shared by every renderer, so the tables agree with one another."""

from __future__ import annotations

from collections.abc import Sequence

from simulator.stats.paired import Effect
from simulator.stats.scope import interval_caveat

MISSING = "—"


def proportion(value: float | None) -> str:
    """A rate with three decimals, as in the paper's tables (0.913)."""
    return MISSING if value is None else f"{value + 0.0:.3f}"


def points(value: float | None, *, signed: bool = True) -> str:
    """A proportion shown in percentage points with one decimal; never ``-0.0``."""
    if value is None:
        return MISSING
    shown = round(value * 100.0, 1) + 0.0
    if shown == 0.0:
        return "0.0"
    return f"{shown:+.1f}" if signed else f"{shown:.1f}"


def interval(low: float, high: float) -> str:
    """A percentile interval in points: ``[85.4, 95.6]``."""
    return f"[{points(low, signed=False)}, {points(high, signed=False)}]"


def count_of(count: int, total: int) -> str:
    """``28080 / 38880``."""
    return f"{count} / {total}"


def _count(values: Sequence[int], noun: str) -> str:
    low, high = min(values), max(values)
    shown = str(low) if low == high else f"{low}-{high}"
    return f"{shown} {noun}" + ("" if high == 1 else "s")


def interval_scope(effects: Sequence[Effect]) -> str:
    """How a table's intervals were drawn and what they cover, as one clause.

    ``nested bootstrap over 1 model unit and 80 policy units; covers task sampling for this
    model only``. The caveat follows the effect with the fewest model units.
    """
    kinds = sorted({e.bootstrap for e in effects})
    model_units = [e.model_units for e in effects]
    clause = (f"{'/'.join(kinds)} bootstrap over {_count(model_units, 'model unit')} and "
              f"{_count([e.policy_units for e in effects], 'policy unit')}")
    return clause + caveat_clause(min(model_units))


def caveat_clause(model_units: int) -> str:
    """``; covers task sampling for this model only``, ``; may under-cover across models``
    or nothing, to follow an interval or a description of one."""
    caveat = interval_caveat(model_units)
    if caveat is None:
        return ""
    return f"; covers {caveat}" if model_units <= 1 else f"; {caveat}"


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]],
                   align: str | None = None) -> list[str]:
    """A GitHub-flavoured table and the blank line after it; ``align`` is one ``l`` or ``r``
    per column (default: two left-aligned names, then numbers)."""
    align = align or "l" * 2 + "r" * (len(header) - 2)
    marks = [":--" if a == "l" else "--:" for a in align]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(marks) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return [*lines, ""]
