"""PNG plots of a report: success heatmap, forest plot of repair effects, GF bars.

Drawn from the :class:`Report` only (never from rows), so plots and tables cannot disagree.
Uses matplotlib's object API with the Agg canvas: no pyplot global state, no display needed.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from simulator.report.formatting import interval, interval_scope, points
from simulator.report.model import Report
from simulator.stats.layers import ordered_modes, ordered_scenarios

_DPI = 150
_PNG_METADATA = {"Software": None}
"""Leave out the matplotlib version so the same report gives the same bytes."""


def _label(name: str) -> str:
    return name.replace("_", " ")


def _save(fig: Figure, path: Path) -> Path:
    FigureCanvasAgg(fig)
    fig.savefig(path, dpi=_DPI, metadata=_PNG_METADATA)
    return path


def _columns(report: Report) -> list[tuple[str, str]]:
    several = len(report.arms) > 1
    cols = []
    for arm in report.arms:
        for mode in ordered_modes(c.contract_mode for c in arm.scenario_modes):
            cols.append((arm.arm, mode if not several else f"{arm.arm}\n{mode}"))
    return cols


def success_heatmap(report: Report, path: Path) -> Path:
    """Scenario (rows) x contract mode (columns, per arm) strict success, annotated."""
    scenarios = ordered_scenarios(c.scenario for a in report.arms for c in a.scenario_modes)
    cols = _columns(report)
    grid = np.full((len(scenarios), len(cols)), np.nan)
    for j, (arm_name, label) in enumerate(cols):
        arm = next(a for a in report.arms if a.arm == arm_name)
        mode = label.split("\n")[-1]
        for c in arm.scenario_modes:
            if c.contract_mode == mode and c.success_rate is not None:
                grid[scenarios.index(c.scenario), j] = c.success_rate
    fig = Figure(figsize=(2.2 + 1.5 * len(cols), 1.2 + 0.55 * len(scenarios)),
                 layout="constrained")
    ax = fig.add_subplot()
    image = ax.imshow(np.ma.masked_invalid(grid), cmap="viridis", vmin=0.0, vmax=1.0,
                      aspect="auto")
    for (i, j), value in np.ndenumerate(grid):
        if not np.isnan(value):
            ax.text(j, i, f"{value:.3f}", ha="center", va="center", fontsize=9,
                    color="black" if value > 0.6 else "white")
    ax.set_xticks(range(len(cols)), [label for _, label in cols])
    ax.set_yticks(range(len(scenarios)), [_label(s) for s in scenarios])
    ax.set_xlabel("arm / contract mode" if len(report.arms) > 1 else "contract mode")
    ax.set_ylabel("scenario")
    ax.set_title("Strict success (S) by scenario\nand contract mode")
    fig.colorbar(image, ax=ax, label="strict success rate")
    return _save(fig, path)


def repair_forest(report: Report, path: Path) -> Path | None:
    """Repair - strict effect per scenario with its 95 % interval, in points."""
    arms = [a for a in report.arms if a.effects]
    if not arms:
        return None
    scenarios = ordered_scenarios(e.scenario for a in arms for e in a.effects)
    fig = Figure(figsize=(9.0, 1.2 + 0.5 * len(scenarios)), layout="constrained")
    ax = fig.add_subplot()
    offsets = np.linspace(-0.2, 0.2, len(arms)) if len(arms) > 1 else [0.0]
    for arm, offset in zip(arms, offsets, strict=True):
        ys = [scenarios.index(e.scenario) + offset for e in arm.effects]
        est = np.array([e.effect.estimate for e in arm.effects]) * 100
        low = np.array([e.effect.low for e in arm.effects]) * 100
        high = np.array([e.effect.high for e in arm.effects]) * 100
        bars = ax.errorbar(est, ys, xerr=[est - low, high - est], fmt="o", capsize=4,
                           label=arm.arm if len(arms) > 1 else None)
        for e, y in zip(arm.effects, ys, strict=True):
            ax.annotate(f"{points(e.effect.estimate)} {interval(e.effect.low, e.effect.high)}",
                        xy=(1.01, y), xycoords=("axes fraction", "data"), va="center",
                        fontsize=8, color=bars[0].get_color())
    ax.axvline(0.0, color="grey", linewidth=1, linestyle="--")
    ax.set_yticks(range(len(scenarios)), [_label(s) for s in scenarios])
    ax.invert_yaxis()
    ax.set_xlim(-105, 105)
    scope = interval_scope([e.effect for a in arms for e in a.effects])
    ax.set_xlabel("repair − strict, strict success (percentage points; bars: 95 % interval)\n"
                  f"intervals: {scope}")
    ax.set_ylabel("scenario")
    ax.set_title("Paired repair − strict effect by scenario")
    if len(arms) > 1:
        ax.legend(title="arm", loc="lower left")
    return _save(fig, path)


def groundedness_false_positives(report: Report, path: Path) -> Path:
    """Share of records grounded yet not strictly successful, per scenario and mode."""
    scenarios = ordered_scenarios(c.scenario for a in report.arms for c in a.scenario_modes)
    cols = _columns(report)
    fig = Figure(figsize=(9.5, 1.2 + 0.5 * len(scenarios) * max(1, len(cols) / 2)),
                 layout="constrained")
    ax = fig.add_subplot()
    height = 0.8 / max(1, len(cols))
    for j, (arm_name, label) in enumerate(cols):
        arm = next(a for a in report.arms if a.arm == arm_name)
        mode = label.split("\n")[-1]
        values = {c.scenario: (c.groundedness_false_positive_rate or 0.0) * 100
                  for c in arm.scenario_modes if c.contract_mode == mode}
        ys = np.arange(len(scenarios)) - 0.4 + height * (j + 0.5)
        widths = [values.get(s, 0.0) for s in scenarios]
        bars = ax.barh(ys, widths, height=height, label=label.replace("\n", " "))
        ax.bar_label(bars, labels=[f"{w:.1f}" for w in widths], padding=2,
                     fontsize=7 if len(cols) > 2 else 8)
    ax.set_yticks(range(len(scenarios)), [_label(s) for s in scenarios])
    ax.invert_yaxis()
    ax.set_xlim(0, 105)
    ax.set_xlabel("grounded but not strict success (% of records)")
    ax.set_ylabel("scenario")
    ax.set_title("Groundedness false positives by scenario")
    ax.legend(title="arm / contract mode" if len(report.arms) > 1 else "contract mode",
              loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return _save(fig, path)


def write_plots(report: Report, out_dir: Path | str) -> list[Path]:
    """Write every plot into ``out_dir``; returns the files written."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = [success_heatmap(report, out / "success_heatmap.png"),
               repair_forest(report, out / "repair_effects_forest.png"),
               groundedness_false_positives(report, out / "groundedness_false_positives.png")]
    return [p for p in written if p is not None]
