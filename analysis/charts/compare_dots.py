"""CompareDotChart: one dot per cell, run b over run a with its 99% interval as whiskers, coloured by change."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

from analysis.charts.style import CHANGE_COLORS, describe, titled  # noqa: E402


def takeaway(cells: pd.DataFrame) -> str:
    """'3 of 120 cells changed beyond the noise threshold (2 faster, 1 slower)'."""
    counts = cells["change"].value_counts()
    changed = {c: int(counts.get(c, 0)) for c in ("faster", "slower")}
    total = sum(changed.values())
    if not total:
        return f"none of {len(cells)} cells changed beyond the noise threshold"
    return (
        f"{total} of {len(cells)} cells changed beyond the noise threshold "
        f"({changed['faster']} faster, {changed['slower']} slower)"
    )


def compare_dot_chart(cells: pd.DataFrame, title: str, threshold: float, caption: str) -> Figure:
    """Figure for compare_cells() output (one row per cell, in display order)."""
    height = 1.2 + 0.22 * len(cells)
    fig, ax = plt.subplots(figsize=(8, height + 0.3))
    ax.axvspan(1 - threshold, 1 + threshold, color="#eeeeee", zorder=0, label=f"±{threshold:.0%} noise threshold")
    ax.axvline(1.0, color="#888888", linewidth=0.8)
    for y, row in enumerate(cells.itertuples()):
        color = CHANGE_COLORS.get(row.change, "#555555")
        if pd.notna(row.ci99_lower) and pd.notna(row.ci99_upper):
            ax.plot([row.ci99_lower, row.ci99_upper], [y, y], color=color, linewidth=1.5)
        ax.plot(row.ratio_b_over_a, y, "o", color=color, markersize=4)
    ax.set_yticks(range(len(cells)), cells["cell_id"], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel(
        "time in run b / time in run a (dot: ratio of geometric means; whiskers: 99% CI over processes)", fontsize=8
    )
    titled(ax, takeaway(cells), caption, title)
    describe(fig, [f"{r.cell_id}: {r.ratio_b_over_a:.3f}×, {r.change}" for r in cells.itertuples()])
    handles = [Line2D([0], [0], color=c, marker="o", label=name) for name, c in CHANGE_COLORS.items()]
    ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.grid(axis="x", linewidth=0.3)
    fig.tight_layout()
    return fig
