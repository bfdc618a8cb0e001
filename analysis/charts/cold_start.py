"""ColdStartChart: each cold-start benchmark's whole process as one horizontal bar, fastest first, split into the time
before the call (runtime start, dataset read, binding) and the first call, with the 99% interval of the whole process
and its value written clear of the interval. The title says which start was fastest, as far as the intervals allow.
Failed cells are listed under the chart, not drawn."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from analysis.charts.style import describe, finish, titled  # noqa: E402
from analysis.charts.takeaway import fastest_takeaway  # noqa: E402
from analysis.formatting.names import display_labels  # noqa: E402
from harness.model.folder.records import MEASURED  # noqa: E402


def cold_labels(table: pd.DataFrame) -> tuple[list[str], list[str]]:
    """(two-line bar labels, short names for the title) of each row: the library, its settings and the runtime."""
    names = display_labels(table, separator="\n", extras=("operation", "dataset"))
    short = display_labels(table, extras=("operation",))
    return (
        [f"{names[r.benchmark]} · .NET {r.runtime}" for r in table.itertuples()],
        [f"{short[r.benchmark]} on .NET {r.runtime}" for r in table.itertuples()],
    )


def cold_start_chart(table: pd.DataFrame, title: str, caption: str = "") -> Figure:
    """Figure for the rows of analysis.cold_start.cold_table() (any number of groups); `title` is the subtitle."""
    drawable = table["status"].isin(MEASURED) & table["process_ms"].notna()
    drawn = table[drawable].sort_values("process_ms", kind="stable")
    failed = table[~drawable]
    labels, short = cold_labels(drawn) if not drawn.empty else ([], [])
    fig, ax = plt.subplots(figsize=(8, 1.4 + 0.42 * max(len(drawn), 1)))
    y = list(range(len(drawn)))
    # The prepare-only median can come out above the whole process's (20 ms vs 19 ms, an AOT start): the bar is the
    # whole process, its grey part never longer than it.
    before = drawn["before_call_ms"].fillna(0).clip(lower=0).combine(drawn["process_ms"], min)
    first = (drawn["process_ms"] - before).clip(lower=0)
    ax.barh(y, before, color="#9aa7b5", label="start and preparation (same process with --prepare-only)")
    ax.barh(y, first, left=before, color="#0072B2", label="first call")
    upper = drawn["process_ci99_upper_ms"].fillna(drawn["process_ms"])
    low = (drawn["process_ms"] - drawn["process_ci99_lower_ms"].fillna(drawn["process_ms"])).clip(lower=0)
    high = (upper - drawn["process_ms"]).clip(lower=0)
    ax.errorbar(drawn["process_ms"], y, xerr=[low, high], fmt="none", ecolor="#222222", capsize=2, linewidth=0.8)
    x_max = upper.max() if not drawn.empty else 1.0
    for i, (r, right) in enumerate(zip(drawn.itertuples(), upper)):
        ax.text(right + x_max * 0.015, i, f"{r.process_ms:,.0f} ms", va="center", fontsize=6.5)
    ax.set_yticks(y, labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel(
        "whole process, ms, fastest first (median; whisker: 99% CI over the runs)\n"
        "grey: start and preparation (the same process with --prepare-only); blue: the first call",
        fontsize=8,
    )
    ax.set_xlim(0, x_max * 1.2)
    ax.grid(axis="x", linewidth=0.3)
    entries = [
        (label, r.process_ms, r.process_ci99_lower_ms, r.process_ci99_upper_ms)
        for label, r in zip(short, drawn.itertuples())
    ]
    titled(ax, fastest_takeaway(entries, "ms", higher_is_faster=False), caption, title)
    describe(fig, [f"{e[0]}: {e[1]:,.0f} ms [{e[2]:,.0f}, {e[3]:,.0f}]" for e in entries])
    return finish(fig, [f"not drawn: {r.benchmark} ({r.runtime}): {r.status}: {r.error}" for r in failed.itertuples()])
