"""One published figure across runs: each run's measured ratio with its 99 % interval, a colour per series (host,
runtime, ISA level), the published ratio and its tolerance band, and each change point as a dashed line between the
two runs it lies between, labelled with its size."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from analysis.charts.style import describe, ratio_axis, titled  # noqa: E402
from analysis.compute.change_points import usable  # noqa: E402
from analysis.compute.figure_series import FigureSeries  # noqa: E402
from harness.model.judging import TOLERANCE  # noqa: E402

#: Series colours in order (Okabe–Ito without its yellow, which reads poorly on white); further series repeat them.
SERIES_COLORS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
#: At most this many series are drawn (a legend line each); the page's table lists every one.
MAX_SERIES = 7
#: At most this many runs are labelled on the x axis.
MAX_RUN_LABELS = 24


def _draw_series(ax: Axes, one: FigureSeries, place: dict[str, int], color: str, offset: float) -> list[float]:
    """One series' readings (points and interval whiskers, nudged by `offset`) and change points; the ratios drawn."""
    readings = [r for r in usable(one.readings) if r.run_id in place]
    xs = [place[r.run_id] + offset for r in readings]
    ax.vlines(xs, [r.lower for r in readings], [r.upper for r in readings], color=color, linewidth=1.5)
    ax.plot(xs, [r.ratio for r in readings], "o-", color=color, markersize=4, linewidth=0.6, label=one.label)
    for change in one.changes:
        if change.after_run in place:
            x = place[change.after_run] - 0.5
            ax.axvline(x, color=color, linestyle=":", linewidth=1.2)
            ax.annotate(
                f"{change.change:+.1%}",
                (x, 1),
                xycoords=("data", "axes fraction"),
                xytext=(2, -10),
                textcoords="offset points",
                fontsize=7,
                color=color,
            )
    return [r.ratio for r in readings]


def history_chart(
    series: list[FigureSeries], runs: list[str], published: float | None, title: str, caption: str
) -> Figure:
    """The chart of a figure's series over `runs` (every run of its history, oldest first, by run id)."""
    fig, ax = plt.subplots(figsize=(8, 3.6))
    place = {run: i for i, run in enumerate(runs)}
    points = [published] if published else []
    if published:
        ax.axhspan(published * (1 - TOLERANCE), published * (1 + TOLERANCE), color="#eeeeee", zorder=0)
        ax.axhline(published, color="#222222", linestyle="--", linewidth=0.8, label="published")
    shown = [one for one in series if usable(one.readings)][:MAX_SERIES]
    described = []
    for number, one in enumerate(shown):
        points += _draw_series(
            ax, one, place, SERIES_COLORS[number % len(SERIES_COLORS)], (number - (len(shown) - 1) / 2) * 0.08
        )
        described.append(
            f"{one.label}: "
            + ", ".join(f"{r.run_id} {r.ratio:.3g}×" for r in usable(one.readings)[-6:])
            + "".join(f"; {c.sentence()}" for c in one.changes)
        )
    ratio_axis(ax, "y")
    if points:
        ax.set_ylim(min(points) / 1.15, max(points) * 1.15)
    step = max(1, -(-len(runs) // MAX_RUN_LABELS))
    ax.set_xticks(
        range(0, len(runs), step),
        [runs[i][:16] for i in range(0, len(runs), step)],
        rotation=45,
        ha="right",
        fontsize=6,
    )
    ax.set_xlim(-0.6, len(runs) - 0.4)
    ax.set_xlabel("run (oldest first)", fontsize=8)
    ax.set_ylabel(f"ratio (log); grey: published ±{TOLERANCE:.0%}", fontsize=8)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=6, loc="best")
    ax.grid(axis="y", which="both", linewidth=0.3)
    changes = sum(len(s.changes) for s in series)
    finding = f"{changes} change point{'s' if changes != 1 else ''} in {len(runs)} run{'s' if len(runs) != 1 else ''}"
    titled(ax, finding, caption, title)
    describe(fig, described)
    fig.tight_layout()
    return fig
