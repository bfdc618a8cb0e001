"""RatioBarChart: horizontal bars of mean time per operation, fastest first, one bar per ISA level side by side in the
library's colour, 99% CI error bars, and beside each bar (clear of its error bar) the ratio to the group's baseline. The
baseline keeps its place in the speed order and is marked; failed verification is drawn hatched in red with its label
marked. The title states the group's finding (analysis/charts/takeaway.py); the group is the subtitle."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from analysis.charts.style import describe, finish, library_color, titled  # noqa: E402
from analysis.charts.takeaway import time_ratio_takeaway  # noqa: E402
from analysis.formatting.names import display_labels, library_name  # noqa: E402
from analysis.formatting.tables import status_text  # noqa: E402
from harness.model.folder.records import MEASURED, VerificationStatus  # noqa: E402
from harness.model.stats.stats import format_rel_ci  # noqa: E402

UNVERIFIED_COLOR = "#c0392b"
#: With several levels: the height of one bar and the gap between benchmarks (in bar-row units of the y axis).
BAR_HEIGHT = 0.3
BENCHMARK_GAP = 0.35
#: Bars of the second, third … ISA level of a benchmark: its library colour, lighter.
LEVEL_ALPHAS = (1.0, 0.6, 0.35, 0.2)


def time_unit(max_ns: float) -> tuple[str, float]:
    """(unit name, nanoseconds per unit) that keeps axis numbers short."""
    if max_ns >= 1e6:
        return "ms", 1e6
    if max_ns >= 1e4:
        return "µs", 1e3
    return "ns", 1.0


def _measured(rows: pd.DataFrame) -> pd.DataFrame:
    return rows[rows["status"].isin(MEASURED)]


def speed_order(cells: pd.DataFrame, levels: list[str]) -> list[str]:
    """Benchmarks fastest first: by time at the first level each was measured at in `levels` order (the chart's primary
    level where it has one); benchmarks with no measurement last, in their given order."""
    benchmarks = list(dict.fromkeys(cells["benchmark"]))
    measured = _measured(cells)

    def key(bench: str) -> tuple[int, float, int]:
        rows = measured[measured["benchmark"] == bench]
        for rank, level in enumerate(levels):
            at = rows[rows["setting"] == level]
            if not at.empty and pd.notna(at.iloc[0]["time_ns"]):
                return (rank, float(at.iloc[0]["time_ns"]), benchmarks.index(bench))
        return (len(levels), 0.0, benchmarks.index(bench))

    return sorted(benchmarks, key=key)


def takeaway(cells: pd.DataFrame, levels: list[str], labels: dict[str, str]) -> str:
    """The group's finding at its first level: the fastest benchmark against the baseline, as its interval allows."""
    baseline = cells["baseline"].iloc[0]
    for level in levels:
        at = _measured(cells[(cells["setting"] == level) & ~cells["comparison_void"].fillna(False).astype(bool)])
        compared = at[(at["benchmark"] != baseline) & at["ratio"].notna()]
        if compared.empty or baseline not in set(at["benchmark"]):
            continue
        best = compared.sort_values("ratio").iloc[0]
        lower, upper = best.get("ratio_ci99_lower"), best.get("ratio_ci99_upper")
        text = time_ratio_takeaway(
            labels[best["benchmark"]],
            labels[baseline],
            float(best["ratio"]),
            None if pd.isna(lower) else float(lower),
            None if pd.isna(upper) else float(upper),
        )
        return text + (f" ({level})" if len(levels) > 1 else "")
    return "no ratio to the baseline could be measured"


def _label(benchmark: str, rows: pd.DataFrame, baseline: str, labels: dict[str, str]) -> str:
    label = labels[benchmark] + ("\n[baseline]" if benchmark == baseline else "")
    if (rows["verification_status"] == VerificationStatus.FAILED).any():
        label += "\nUNVERIFIED: result differs from input"
    return label


def _note(row: pd.Series, baseline: str, level: str, several_levels: bool) -> str:
    note = ""
    if row["benchmark"] == baseline:
        note = "baseline"
    elif pd.notna(row["ratio"]):
        note = f"{row['ratio']:.2f}×" + (
            f" {format_rel_ci(row['ratio_rel_ci99'])}" if pd.notna(row["ratio_rel_ci99"]) else ""
        )
    if row["comparison_void"]:
        note += " (void)"
    return f"{level}: {note}" if several_levels else note


def ratio_bar_chart(cells: pd.DataFrame, title: str, levels: list[str], caption: str = "") -> Figure:
    """Figure for one group of one experiment (rows from with_ratios()); `title` names the group (the subtitle)."""
    levels = [level for level in levels if level in set(cells["setting"])] or levels
    benchmarks = speed_order(cells, levels)
    baseline = cells["baseline"].iloc[0]
    labels = display_labels(cells)  # one line: the title and notes
    ticks = display_labels(cells, separator="\n")  # two lines: the bars' labels
    several = len(levels) > 1
    present, centres, height, top = _layout(cells, benchmarks, levels, several)
    fig, ax = plt.subplots(figsize=(8, 1.4 + 0.42 * top if several else 1.4 + 0.45 * len(benchmarks)))
    x_max, unit, per_unit = _time_axis(cells)
    failures: dict[str, str] = {}
    shown: list[str] = []
    for b_index, bench in enumerate(benchmarks):
        rows = cells[cells["benchmark"] == bench]
        color = library_color(library_name(rows.iloc[0]))
        for slot, level in enumerate(present[bench]):
            l_index = levels.index(level)
            y = centres[b_index] + (slot - (len(present[bench]) - 1) / 2) * height
            at = rows[rows["setting"] == level]
            row = at.iloc[0]
            if row["status"] not in MEASURED:
                _draw_unmeasured(ax, y, row, labels[bench], failures)
                continue
            note = _note(row, baseline, level, several)
            alpha = LEVEL_ALPHAS[min(l_index, len(LEVEL_ALPHAS) - 1)]
            mean, half = _draw_bar(ax, row, y, height, color, alpha, per_unit, x_max, note, bench == baseline)
            shown.append(f"{labels[bench]}: {mean:,.4g} {unit} ±{half:,.2g}, {note}")
    _benchmark_ticks(ax, cells, benchmarks, centres, baseline, ticks)
    ax.invert_yaxis()
    # Room on the right for the longest ratio label beside the longest bar.
    ax.set_xlim(0, x_max * (1.6 if several else 1.35))
    ax.set_xlabel(
        f"time per operation ({unit}), fastest first; mean of per-process medians; bars: 99% CI over processes;\n"
        "label: ratio to the baseline at the same ISA level, ±99% CI over paired processes",
        fontsize=8,
    )
    subtitle = title + (f" · bars per benchmark, top to bottom: {', '.join(levels)}" if several else "")
    titled(ax, takeaway(cells, levels, labels), caption, subtitle)
    ax.grid(axis="x", linewidth=0.3)
    describe(fig, shown)
    return finish(
        fig, [f"{i}. {bench}: {text}" for i, (bench, text) in enumerate(failures.items(), 1)], UNVERIFIED_COLOR
    )


def _layout(
    cells: pd.DataFrame, benchmarks: list[str], levels: list[str], several: bool
) -> tuple[dict[str, list[str]], list[float], float, float]:
    """Where the bars go: each benchmark's levels, the centre of its block on the y axis, one bar's height, and the
    height of them all."""
    # Each benchmark gets a slot per level it has (a benchmark measured at one level takes one bar's height, not four).
    present = {
        b: [lv for lv in levels if not cells[(cells["benchmark"] == b) & (cells["setting"] == lv)].empty]
        for b in benchmarks
    }
    height = BAR_HEIGHT if several else 0.8
    centres, top = [], 0.0
    for bench in benchmarks:
        block = max(len(present[bench]), 1) * height
        centres.append(top + block / 2)
        top += block + (BENCHMARK_GAP if several else 0.2)
    return present, centres, height, top


def _time_axis(cells: pd.DataFrame) -> tuple[float, str, float]:
    """The time axis: its extent in its unit, the unit's name and the nanoseconds per unit."""
    measured = cells[cells["status"].isin(MEASURED)]
    # the longest bar with its whisker; a cell of one process has no interval, only its time (a run of single-process
    # cells once drew its labels a million axis-widths to the right, a figure of 10^9 pixels)
    x_max = pd.concat([measured["ci99_upper_ns"], measured["time_ns"]]).max()
    x_max = x_max if pd.notna(x_max) and x_max > 0 else 1.0
    unit, per_unit = time_unit(x_max)
    x_max /= per_unit
    return x_max, unit, per_unit


def _draw_unmeasured(ax: Axes, y: float, row: pd.Series, label: str, failures: dict[str, str]) -> None:
    """A cell with no measurement, in place of its bar: 'same as native', or its status pointing to a note below (the
    benchmark's first failure is added to `failures` under its label)."""
    text = status_text(row)
    if text == "same as native":
        ax.text(0, y, "  same as native (not re-run)", va="center", fontsize=7, color="#555555")
    else:
        failures.setdefault(label, text)
        ax.text(
            0,
            y,
            f"  {text.split(':')[0]} (note {len(failures)} below)",
            va="center",
            fontsize=7,
            color=UNVERIFIED_COLOR,
        )


def _draw_bar(
    ax: Axes,
    row: pd.Series,
    y: float,
    height: float,
    color: str,
    alpha: float,
    per_unit: float,
    x_max: float,
    note: str,
    bold: bool,
) -> tuple[float, float]:
    """One measured cell's bar with its 99% CI whisker and, clear of the whisker, its note (bold for the baseline); a
    cell that failed verification is drawn hatched in red. Returns the mean and the half-width in the axis unit."""
    unverified = row["verification_status"] == VerificationStatus.FAILED
    mean = row["time_ns"] / per_unit
    half = 0.0 if pd.isna(row["ci99_half_width_ns"]) else row["ci99_half_width_ns"] / per_unit
    ax.barh(
        y,
        mean,
        height=height * 0.9,
        color="white" if unverified else color,
        alpha=1.0 if unverified else alpha,
        edgecolor=UNVERIFIED_COLOR if unverified else "#333333",
        linewidth=0.4,
        hatch="///" if unverified else None,
        xerr=half or None,
        error_kw={"elinewidth": 0.8, "capsize": 2, "ecolor": "#333333"},
    )
    ax.text(
        mean + half + x_max * 0.015,
        y,
        note,
        va="center",
        fontsize=7,
        color=UNVERIFIED_COLOR if unverified else "#222222",
        fontweight="bold" if bold else "normal",
    )
    return mean, half


def _benchmark_ticks(
    ax: Axes, cells: pd.DataFrame, benchmarks: list[str], centres: list[float], baseline: str, ticks: dict[str, str]
) -> None:
    """Each benchmark's label at its block's centre: red when a cell failed verification, bold for the baseline."""
    ax.set_yticks(
        centres,
        [_label(b, cells[cells["benchmark"] == b], baseline, ticks) for b in benchmarks],
        fontsize=8,
    )
    for tick, bench in zip(ax.get_yticklabels(), benchmarks):
        if (cells[cells["benchmark"] == bench]["verification_status"] == VerificationStatus.FAILED).any():
            tick.set_color(UNVERIFIED_COLOR)
        if bench == baseline:
            tick.set_fontweight("bold")
