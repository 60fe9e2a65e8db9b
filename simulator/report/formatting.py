"""Number formats shared by every renderer, so the tables agree with one another."""

from __future__ import annotations

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
