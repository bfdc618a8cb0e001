"""ThroughputChart: one shared operation across labs, one panel per dataset, one horizontal bar per cell in MB/s (JSON
text read or written per second) with its 99% interval, fastest first, each bar in its library's colour and named for a
reader, its value written clear of the interval. The title says which was fastest on how many datasets, counting only
those where its interval is clear of the runner-up's. Where the table has a speed of light (the fastest verified cell
of a lab declaring itself the reference, analysis/compute/cross_language.py), a dashed line in each panel marks it.
Cells that failed or have no payload size are listed under the chart, not drawn."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from analysis.charts.style import describe, finish, library_color, titled  # noqa: E402
from analysis.formatting.names import SEPARATOR, library_name, settings_line  # noqa: E402
from harness.model.folder.records import MEASURED  # noqa: E402


def _text(value: object) -> str:
    return value if isinstance(value, str) else ""


def bar_label(row: pd.Series) -> str:
    """'JSON (V8 built-in) 12.4 · string (Node.js 22.11.0)', with the ISA level when it is not native."""
    version = row.get("library_version")
    runtime = row.get("runtime_version")
    runtime = runtime if isinstance(runtime, str) and runtime else row.get("runtime_requested")
    name = library_name(row) + (f" {version}" if isinstance(version, str) and version else "")
    settings = settings_line(row)
    level = _text(row.get("isa_requested"))
    where = f"{_text(row.get('runtime')) or row.get('lab')} {runtime}" + (
        f", {level}" if level and level != "native" else ""
    )
    return name + (SEPARATOR + settings if settings else "") + f" ({where})"


def _speed_of_light(table: pd.DataFrame) -> str:
    """What the dashed reference lines are ('simdjson simdjson-dom'), without their runtimes (the axis label must stay
    one short line), or ''."""
    cells = table["speed_of_light_cell"].dropna().unique() if "speed_of_light_cell" in table else []
    return ", ".join(dict.fromkeys(str(c).split(" (")[0] for c in cells))


def takeaway(table: pd.DataFrame, datasets: list[str]) -> str:
    """The bar fastest on most datasets with an interval clear of the runner-up's there, or that no bar is clear."""
    wins: dict[str, int] = {}
    for dataset in datasets:
        rows = table[table["dataset"] == dataset].sort_values("mb_per_s", ascending=False)
        if len(rows) < 2:
            continue
        best, second = rows.iloc[0], rows.iloc[1]
        if pd.notna(best["mb_per_s_lower"]) and pd.notna(second["mb_per_s_upper"]):
            if best["mb_per_s_lower"] > second["mb_per_s_upper"]:
                label = bar_label(best)
                wins[label] = wins.get(label, 0) + 1
    if not wins:
        return "no bar is fastest clear of the runner-up's interval on any dataset"
    label, count = max(wins.items(), key=lambda item: item[1])
    return f"Highest throughput on {count} of {len(datasets)} datasets: {label}"


def throughput_chart(table: pd.DataFrame, title: str, caption: str = "") -> Figure:
    """Figure for the rows of analysis.cross_language.cross_language_table() of one shared operation."""
    drawable = table["status"].isin(MEASURED) & table["mb_per_s"].notna()
    failed = table[~drawable]
    datasets = list(dict.fromkeys(table.loc[drawable, "dataset"]))
    heights = [max(int((drawable & (table["dataset"] == d)).sum()), 1) for d in datasets] or [1]
    fig, axes = plt.subplots(
        len(heights),
        1,
        figsize=(8, 1.1 + 0.28 * sum(heights) + 0.5 * len(heights)),
        gridspec_kw={"height_ratios": heights},
        squeeze=False,
    )
    for ax, dataset in zip(axes[:, 0], datasets or [None]):
        rows = table[drawable & (table["dataset"] == dataset)].sort_values("mb_per_s", ascending=False)
        y = list(range(len(rows)))
        ax.barh(
            y,
            rows["mb_per_s"],
            color=[library_color(library_name(r)) for _, r in rows.iterrows()],
            edgecolor="#333333",
            linewidth=0.4,
        )
        upper = rows["mb_per_s_upper"].fillna(rows["mb_per_s"])
        low = (rows["mb_per_s"] - rows["mb_per_s_lower"].fillna(rows["mb_per_s"])).clip(lower=0)
        high = (upper - rows["mb_per_s"]).clip(lower=0)
        ax.errorbar(rows["mb_per_s"], y, xerr=[low, high], fmt="none", ecolor="#222222", capsize=2, linewidth=0.8)
        x_max = upper.max() if not rows.empty else 1.0
        for i, (r, right) in enumerate(zip(rows.itertuples(), upper)):
            ax.text(right + x_max * 0.015, i, f"{r.mb_per_s:,.0f}", va="center", fontsize=6.5)
        ax.set_yticks(y, [bar_label(r) for _, r in rows.iterrows()], fontsize=7)
        describe(fig, [f"{dataset}, {bar_label(r)}: {r['mb_per_s']:,.0f} MB/s" for _, r in rows.iterrows()])
        reference = (
            rows["speed_of_light_mb_per_s"].dropna() if "speed_of_light_mb_per_s" in rows else pd.Series(dtype=float)
        )
        if not reference.empty:
            ax.axvline(reference.iloc[0], color="#555555", linestyle="--", linewidth=0.8)
            x_max = max(x_max, reference.iloc[0])
        ax.invert_yaxis()
        ax.set_xlim(0, x_max * 1.15)
        ax.grid(axis="x", linewidth=0.3)
        ax.set_ylabel(dataset or "", fontsize=8)
    axes[-1, 0].set_xlabel(
        "MB/s of JSON text (10^6 bytes per second), fastest first; whisker: 99% CI over processes"
        + ("; dashed: the speed of light (" + _speed_of_light(table) + ")" if _speed_of_light(table) else ""),
        fontsize=8,
    )
    titled(axes[0, 0], takeaway(table[drawable], datasets), caption, title)
    return finish(
        fig,
        [
            f"not drawn: {r.variant} ({r.lab}) on {r.dataset}: {r.status}"
            + (f": {r.error}" if isinstance(r.error, str) else "")
            for r in failed.itertuples()
        ],
    )
