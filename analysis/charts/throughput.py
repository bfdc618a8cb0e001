"""ThroughputChart: one shared operation across labs, one panel per dataset, one horizontal bar per cell in MB/s (JSON
text read or written per second) with its 99% interval; bars coloured by lab. Cells that failed or have no payload size
are listed under the chart, not drawn."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from harness.model.records import MEASURED  # noqa: E402
from analysis.charts.style import finish, titled  # noqa: E402

LAB_COLOURS = ["#2e6fba", "#d9822b", "#3a9a5b", "#8e5ea2", "#9aa7b5"]


def throughput_chart(table: pd.DataFrame, title: str, caption: str = "") -> Figure:
    """Figure for the rows of analysis.cross_language.cross_language_table() of one shared operation."""
    drawable = table["status"].isin(MEASURED) & table["mb_per_s"].notna()
    failed = table[~drawable]
    datasets = list(dict.fromkeys(table.loc[drawable, "dataset"]))
    colours = {lab: LAB_COLOURS[i % len(LAB_COLOURS)] for i, lab in enumerate(dict.fromkeys(table["lab"]))}
    heights = [max(int((drawable & (table["dataset"] == d)).sum()), 1) for d in datasets] or [1]
    fig, axes = plt.subplots(
        len(heights),
        1,
        figsize=(9, 0.8 + 0.28 * sum(heights) + 0.5 * len(heights)),
        gridspec_kw={"height_ratios": heights},
        squeeze=False,
    )
    for ax, dataset in zip(axes[:, 0], datasets or [None]):
        rows = table[drawable & (table["dataset"] == dataset)].sort_values("mb_per_s")
        y = list(range(len(rows)))
        ax.barh(y, rows["mb_per_s"], color=[colours[lab] for lab in rows["lab"]])
        low = (rows["mb_per_s"] - rows["mb_per_s_lower"].fillna(rows["mb_per_s"])).clip(lower=0)
        high = (rows["mb_per_s_upper"].fillna(rows["mb_per_s"]) - rows["mb_per_s"]).clip(lower=0)
        ax.errorbar(rows["mb_per_s"], y, xerr=[low, high], fmt="none", ecolor="#222222", capsize=2, linewidth=0.8)
        for i, r in enumerate(rows.itertuples()):
            ax.text(r.mb_per_s, i, f"  {r.mb_per_s:,.0f}", va="center", fontsize=6.5)
        runtime = [
            v if isinstance(v, str) and v else q for v, q in zip(rows["runtime_version"], rows["runtime_requested"])
        ]
        ax.set_yticks(y, [f"{v} ({lab} {rt})" for v, lab, rt in zip(rows["variant"], rows["lab"], runtime)], fontsize=7)
        ax.set_xlim(0, (rows["mb_per_s_upper"].fillna(rows["mb_per_s"]).max() if not rows.empty else 1) * 1.15)
        ax.grid(axis="x", linewidth=0.3)
        ax.set_ylabel(dataset or "", fontsize=8)
    axes[-1, 0].set_xlabel("MB/s of JSON text (10^6 bytes per second; whisker: 99% CI over processes)", fontsize=8)
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for c in colours.values()]
    axes[0, 0].legend(handles, list(colours), fontsize=7, loc="lower right")
    titled(axes[0, 0], title, caption)
    return finish(
        fig,
        [
            f"not drawn: {r.variant} ({r.lab}) on {r.dataset}: {r.status}"
            + (f": {r.error}" if isinstance(r.error, str) else "")
            for r in failed.itertuples()
        ],
    )
