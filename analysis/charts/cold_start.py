"""ColdStartChart: each cold-start benchmark's whole process as one horizontal bar, split into the time before the
call (runtime start, dataset read, binding) and the first call, with the 99% interval of the whole process. Failed
cells are listed under the chart, not drawn."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from harness.model.records import MEASURED  # noqa: E402
from analysis.charts.style import finish, titled  # noqa: E402


def cold_start_chart(table: pd.DataFrame, title: str, caption: str = "") -> Figure:
    """Figure for the rows of analysis.cold_start.cold_table() (any number of groups)."""
    drawn = table[table["status"].isin(MEASURED) & table["process_ms"].notna()].iloc[::-1]
    failed = table[~table.index.isin(drawn.index)]
    labels = [f"{r.benchmark} ({r.runtime})" for r in drawn.itertuples()]
    fig, ax = plt.subplots(figsize=(9, 0.9 + 0.32 * max(len(drawn), 1)))
    y = range(len(drawn))
    before = drawn["before_call_ms"].fillna(0).clip(lower=0)
    first = (drawn["process_ms"] - before).clip(lower=0)
    ax.barh(y, before, color="#9aa7b5", label="start and preparation (same process with --prepare-only)")
    ax.barh(y, first, left=before, color="#2e6fba", label="first call")
    low = (drawn["process_ms"] - drawn["process_ci99_lower_ms"].fillna(drawn["process_ms"])).clip(lower=0)
    high = (drawn["process_ci99_upper_ms"].fillna(drawn["process_ms"]) - drawn["process_ms"]).clip(lower=0)
    ax.errorbar(drawn["process_ms"], list(y), xerr=[low, high], fmt="none", ecolor="#222222", capsize=2, linewidth=0.8)
    for i, r in enumerate(drawn.itertuples()):
        ax.text(r.process_ms, i, f"  {r.process_ms:,.0f} ms", va="center", fontsize=6.5)
    ax.set_yticks(list(y), labels, fontsize=7)
    ax.set_xlabel("whole process, ms (median; whisker: 99% CI over the runs)", fontsize=8)
    ax.set_xlim(0, (drawn["process_ci99_upper_ms"].fillna(drawn["process_ms"]).max() if not drawn.empty else 1) * 1.18)
    ax.legend(fontsize=7, loc="lower right")
    ax.grid(axis="x", linewidth=0.3)
    titled(ax, title, caption)
    return finish(fig, [f"not drawn: {r.benchmark} ({r.runtime}): {r.status}: {r.error}" for r in failed.itertuples()])
