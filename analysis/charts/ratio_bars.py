"""RatioBarChart: horizontal bars of mean time per operation, one bar per ISA level side by side,
99% CI error bars, the ratio to the group's baseline written at each bar, and failed
verification drawn hatched in red with the benchmark's label marked."""

from __future__ import annotations


import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

from harness.model.records import VerificationStatus  # noqa: E402
from analysis.charts.style import finish, titled  # noqa: E402
from analysis.compute.replicates import MEASURED  # noqa: E402
from analysis.render.tables import status_text  # noqa: E402

UNVERIFIED_COLOR = "#c0392b"


def _label(benchmark: str, rows: pd.DataFrame, baseline: str) -> str:
    label = benchmark + ("  [baseline]" if benchmark == baseline else "")
    if (rows["verification_status"] == VerificationStatus.FAILED).any():
        label += "\nUNVERIFIED: result differs from input"
    return label


def time_unit(max_ns: float) -> tuple[str, float]:
    """(unit name, nanoseconds per unit) that keeps axis numbers short."""
    if max_ns >= 1e6:
        return "ms", 1e6
    if max_ns >= 1e4:
        return "µs", 1e3
    return "ns", 1.0


def ratio_bar_chart(cells: pd.DataFrame, title: str, levels: list[str], caption: str = "") -> Figure:
    """Figure for one group of one experiment (rows from with_ratios(), in display order)."""
    benchmarks = list(dict.fromkeys(cells["benchmark"]))
    baseline = cells["baseline"].iloc[0]
    levels = [level for level in levels if level in set(cells["setting"])] or levels
    height = 0.8 / max(len(levels), 1)
    colors = plt.get_cmap("viridis")([i / max(len(levels) - 1, 1) * 0.85 for i in range(len(levels))])
    fig, ax = plt.subplots(figsize=(10, 1.0 + 0.2 * len(levels) * len(benchmarks) + 0.25 * len(benchmarks)))
    x_max = cells.loc[cells["status"].isin(MEASURED), "ci99_upper_ns"].max()
    x_max = x_max if pd.notna(x_max) else 1.0
    unit, per_unit = time_unit(x_max)
    x_max /= per_unit
    failures: dict[str, str] = {}
    for b_index, bench in enumerate(benchmarks):
        rows = cells[cells["benchmark"] == bench]
        for l_index, level in enumerate(levels):
            y = b_index + (l_index - (len(levels) - 1) / 2) * height
            at = rows[rows["setting"] == level]
            if at.empty:
                continue
            row = at.iloc[0]
            if row["status"] not in MEASURED:
                text = status_text(row)
                if text == "same as native":
                    ax.text(0, y, "  same as native (not re-run)", va="center", fontsize=7, color="#555555")
                else:
                    failures.setdefault(bench, text)
                    ax.text(
                        0,
                        y,
                        f"  {text.split(':')[0]} (note {len(failures)} below)",
                        va="center",
                        fontsize=7,
                        color=UNVERIFIED_COLOR,
                    )
                continue
            unverified = row["verification_status"] == VerificationStatus.FAILED
            mean = row["time_ns"] / per_unit
            half = 0.0 if pd.isna(row["ci99_half_width_ns"]) else row["ci99_half_width_ns"] / per_unit
            ax.barh(
                y,
                mean,
                height=height * 0.9,
                color="white" if unverified else colors[l_index],
                edgecolor=UNVERIFIED_COLOR if unverified else colors[l_index],
                hatch="///" if unverified else None,
                xerr=half or None,
                error_kw={"elinewidth": 0.8, "capsize": 2, "ecolor": "#333333"},
            )
            note = ""
            if bench == baseline:
                note = "baseline"
            elif pd.notna(row["ratio"]):
                note = f"{row['ratio']:.2f}×" + (
                    f" ±{100 * row['ratio_rel_ci99']:.1f}%" if pd.notna(row["ratio_rel_ci99"]) else ""
                )
            if row["comparison_void"]:
                note += " (void)"
            ax.text(
                mean + half + x_max * 0.01,
                y,
                note,
                va="center",
                fontsize=7,
                color=UNVERIFIED_COLOR if unverified else "#222222",
            )
    ax.set_yticks(
        range(len(benchmarks)), [_label(b, cells[cells["benchmark"] == b], baseline) for b in benchmarks], fontsize=8
    )
    for tick, bench in zip(ax.get_yticklabels(), benchmarks):
        if (cells[cells["benchmark"] == bench]["verification_status"] == VerificationStatus.FAILED).any():
            tick.set_color(UNVERIFIED_COLOR)
    ax.invert_yaxis()
    ax.set_xlim(0, x_max * 1.18)
    ax.set_xlabel(
        f"time per operation ({unit}), mean of per-process medians; bars: 99% CI over processes;\n"
        "label: ratio to the baseline at the same ISA level, ±99% CI over paired processes",
        fontsize=8,
    )
    titled(ax, title, caption)
    handles = [Patch(facecolor=colors[i], label=level) for i, level in enumerate(levels)]
    handles.append(Patch(facecolor="white", edgecolor=UNVERIFIED_COLOR, hatch="///", label="verification failed"))
    ax.legend(
        handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), title="ISA level", title_fontsize=7
    )
    ax.grid(axis="x", linewidth=0.3)
    return finish(
        fig, [f"{i}. {bench}: {text}" for i, (bench, text) in enumerate(failures.items(), 1)], UNVERIFIED_COLOR
    )
