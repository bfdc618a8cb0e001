"""RuntimeSweepChart: one group's benchmarks across the runtimes they ran on, as ratios to the group's baseline on
the same runtime and ISA level (99% CI over paired processes), one line per benchmark and ISA level. It answers
"did this finding hold from one runtime to the next": a ratio that crosses 1 between runtimes is a changed finding, and
the title says how many did (judged on the intervals, not the points). Series in their library's colour, named for a
reader; a series measured on one runtime only is drawn as a point, not a line. Drawn only for groups measured on more
than one runtime; failed or unverified points are left out and listed."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from analysis.charts.style import describe, finish, library_color, ratio_axis, titled  # noqa: E402
from analysis.formatting.names import display_labels, library_name, runtime_order  # noqa: E402
from analysis.formatting.tables import status_text  # noqa: E402
from harness.model.folder.records import MEASURED  # noqa: E402
from harness.model.places import is_switched  # noqa: E402


def _own_runtimes(cells: pd.DataFrame) -> pd.DataFrame:
    """The rows measured on the lab's own runtimes: a build with library versions or a switched run setting (an
    explain run's) is a switched factor, drawn by the explanation ladder, not a step of the sweep."""
    return cells[~cells["runtime_requested"].astype(str).map(is_switched)]


def applies(cells: pd.DataFrame) -> bool:
    """True when the group ran on more than one of the lab's own runtimes."""
    return _own_runtimes(cells)["runtime_requested"].nunique() > 1


def _side(lower: float, upper: float) -> int:
    """-1 when the whole interval is below 1 (faster than the baseline), 1 when above, 0 when it straddles 1."""
    return -1 if upper < 1 else 1 if lower > 1 else 0


Points = list[tuple[str, float, float, float]]  # (runtime, ratio, lower, upper) of one line


def takeaway(series: dict[str, Points], runtimes: list[str], baseline: str) -> str:
    """What the lines show against the baseline across runtimes (series: label → Points): which changed direction (one
    interval wholly below 1 and another wholly above it), else where each stayed; one line is told with its range of
    ratios."""
    swept = {label: points for label, points in series.items() if len(points) > 1}
    if not swept:
        return f"each benchmark measured on one runtime only (against {baseline})"
    sides = {label: {_side(lo, hi) for _, _, lo, hi in points} for label, points in swept.items()}
    changed = [label for label, seen in sides.items() if {-1, 1} <= seen]
    span = f"{runtimes[0]} to {runtimes[-1]}"
    if changed:
        return (
            f"{len(changed)} of {len(swept)} ratios to {baseline} changed direction from {span}: "
            + ", ".join(changed[:2])
            + (" …" if len(changed) > 2 else "")
        )
    faster = sum(seen == {-1} for seen in sides.values())
    slower = sum(seen == {1} for seen in sides.values())
    if len(swept) == 1:
        (label, points), seen = next(iter(swept.items())), next(iter(sides.values()))
        low, high = min(p[1] for p in points), max(p[1] for p in points)
        where = (
            "faster on every runtime"
            if seen == {-1}
            else "slower on every runtime"
            if seen == {1}
            else "within the noise of 1 on some runtime"
        )
        return f"{label}: {low:.2f}–{high:.2f}× the time of {baseline} from {span}, {where}"
    return (
        f"no ratio to {baseline} changed direction from {span}: {faster} faster on every runtime, {slower} slower, "
        f"{len(swept) - faster - slower} within the noise of 1 somewhere"
    )


def _points(
    rows: pd.DataFrame, runtimes: list[str], bench: str, level: str, problems: list[str]
) -> tuple[list[int], list[float], list[float], list[float]]:
    """One series' points: each runtime's position on the x axis, the ratio, and the distances from it down and up to
    its 99% CI's ends; a point not measured, void or without a ratio is added to `problems` instead."""
    xs: list[int] = []
    ys: list[float] = []
    low: list[float] = []
    high: list[float] = []
    for _, row in rows.iterrows():
        x = runtimes.index(row["runtime_requested"])
        if row["status"] not in MEASURED or row["comparison_void"] or pd.isna(row["ratio"]):
            why = (
                status_text(row)
                if row["status"] not in MEASURED
                else "void: verification failed"
                if row["comparison_void"]
                else "no ratio"
            )
            problems.append(f"{bench} @ {level} on {row['runtime_requested']}: {why}")
            continue
        xs.append(x)
        ys.append(row["ratio"])
        low.append(row["ratio"] - (row["ratio_ci99_lower"] if pd.notna(row["ratio_ci99_lower"]) else row["ratio"]))
        high.append((row["ratio_ci99_upper"] if pd.notna(row["ratio_ci99_upper"]) else row["ratio"]) - row["ratio"])
    order = sorted(range(len(xs)), key=xs.__getitem__)  # the line runs from the oldest runtime to the newest
    return [xs[i] for i in order], [ys[i] for i in order], [low[i] for i in order], [high[i] for i in order]


def runtime_sweep_chart(cells: pd.DataFrame, title: str, levels: list[str], caption: str = "") -> Figure:
    """Figure for one group of one experiment (rows from with_ratios())."""
    cells = _own_runtimes(cells)
    runtimes = sorted(set(cells["runtime_requested"]), key=runtime_order)
    baseline = cells["baseline"].iloc[0]
    names = display_labels(cells, with_version=False)
    fig, ax = plt.subplots(figsize=(8, 4.2))
    problems: list[str] = []
    compared = cells[cells["benchmark"] != baseline]
    markers = "osD^v<>ph"
    points: list[float] = []
    series: dict[str, Points] = {}
    for index, ((bench, level), rows) in enumerate(compared.groupby(["benchmark", "isa_requested"], sort=False)):
        xs, ys, low, high = _points(rows, runtimes, bench, level, problems)
        if not xs:
            continue
        label = names[bench] if compared["isa_requested"].nunique() == 1 else f"{names[bench]} @ {level}"
        points += ys
        series[label] = [(runtimes[x], y, y - lo, y + hi) for x, y, lo, hi in zip(xs, ys, low, high)]
        ax.errorbar(
            xs,
            ys,
            yerr=[low, high],
            marker=markers[index % len(markers)],
            color=library_color(library_name(rows.iloc[0])),
            capsize=3,
            linewidth=1.2 if len(xs) > 1 else 0,
            label=label,
        )
    ax.axhline(1.0, color="#555555", linewidth=0.8, linestyle="--")
    # Ratios are multiplicative: a log axis, kept around the estimates (an interval from very few processes can be
    # wider than any useful axis; its bar is then cut at the edge).
    ratio_axis(ax, "y")
    if points:
        ax.set_ylim(min(min(points), 1.0) / 2, max(max(points), 1.0) * 2)
    ax.set_xticks(range(len(runtimes)), runtimes)
    ax.set_xlim(-0.4, len(runtimes) - 0.6)
    ax.set_xlabel("runtime (version read back in the measured process)", fontsize=8)
    ax.set_ylabel(f"time ratio to {names.get(baseline, baseline)}\n(same runtime and ISA level; 99% CI)", fontsize=8)
    base_rows = cells[cells["benchmark"] == baseline]  # the title names the library; the axis, its settings too
    short = library_name(base_rows.iloc[0]) if not base_rows.empty else names.get(baseline, baseline)
    titled(ax, takeaway(series, runtimes, short), caption, title)
    describe(
        fig,
        [
            f"{label}: " + ", ".join(f"{runtime} [{lo:.2f}, {hi:.2f}]" for runtime, _, lo, hi in points)
            for label, points in series.items()
        ],
    )
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.grid(axis="y", linewidth=0.3)
    return finish(fig, [f"not drawn: {p}" for p in problems])


runtime_sweep_chart.applies = applies  # type: ignore[attr-defined]
