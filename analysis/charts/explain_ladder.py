"""The explanation ladder, one chart per figure in a report (analysis/render/chart_specs.py): for each figure an
explain run measured on switched builds, its ratio measured here, then the same ratio with each factor switched to the
publisher's value (one at a time), then the published ratio; each measured step a dot with its 99% interval, the
published one a hollow diamond in its ±tolerance band; under the figure's name, the factors left that this host cannot
change. The title says which switches moved it (with several figures: how many a switch moved)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from analysis.charts.claims_dots import published_mark, ratio_rows, short_scenario  # noqa: E402
from analysis.charts.style import describe, titled  # noqa: E402
from analysis.compute.verdicts.explained_by import FIGURE, interval_apart, switched_from  # noqa: E402
from harness.model.judging import VOID  # noqa: E402
from harness.model.places import factor_text  # noqa: E402

#: Colours: the ratio measured here, a switch that moves it, one that does not.
HERE, MOVES, STAYS = "#555555", "#0072B2", "#999999"


def ladders(verdicts: pd.DataFrame) -> list[tuple[pd.Series, pd.DataFrame]]:
    """(figure's primary time row, its rows on switched builds) for every figure with a measured ratio that was
    measured on at least one switched build too (a figure not measured here, e.g. under its vendor's terms, has none).
    """
    time = verdicts[verdicts["metric"] == "time"]
    out = []
    for _, base in time[time["primary"].astype(bool) & time["measured_ratio"].notna()].iterrows():
        same = (time[FIGURE] == base[FIGURE]).all(axis=1) & switched_from(time["runtime"], str(base["runtime"]))
        if same.any():
            out.append((base, time[same]))
    return out


def takeaway(steps: list[tuple[pd.Series, pd.DataFrame]]) -> str:
    """'1 of 4 figures moved by a switched factor' (a switch moves a figure when their 99% intervals are apart); for
    one figure, the factors that moved it ('moved by Newtonsoft.Json 13.0.3') or that none did."""
    if len(steps) == 1:
        base, switched = steps[0]
        movers = [factor_text(str(r["runtime"])) for _, r in switched.iterrows() if interval_apart(base, r)]
        return f"moved by {', '.join(movers)}" if movers else "no switched factor moves it"
    moved = sum(any(interval_apart(base, row) for _, row in switched.iterrows()) for base, switched in steps)
    return f"{moved} of {len(steps)} figure{'s' if len(steps) != 1 else ''} moved by a switched factor"


def _void(row: pd.Series) -> str:
    """' (void: verification failed)' for a step whose cells did not verify: its ratio is drawn, never to be read."""
    return f" ({VOID})" if str(row["verdict"]) == VOID else ""


def explain_ladder_chart(verdicts: pd.DataFrame, title: str, caption: str) -> Figure:
    """Figure for one experiment's verdict rows (primary rows and their switched builds' rows)."""
    steps = ladders(verdicts)
    heights = sum(len(switched) + 2 for _, switched in steps)
    fig, ax = plt.subplots(figsize=(8, 1.6 + 0.32 * heights))
    labels, y, points, described = [], 0, [1.0], []
    for base, switched in steps:
        published = base["published_ratio"]
        published_mark(ax, y, published)
        labels.append(f"{base['published_variant']} · {short_scenario(str(base['scenario']), 40)}: published")
        rows = [(f"here, {base['runtime']}{_void(base)}", base, HERE)]
        rows += [
            (f"with {factor_text(str(r['runtime']))}{_void(r)}", r, MOVES if interval_apart(base, r) else STAYS)
            for _, r in switched.iterrows()
        ]
        for label, row, color in rows:
            y += 1
            if pd.notna(row["measured_ratio_lower"]) and pd.notna(row["measured_ratio_upper"]):
                ax.plot([row["measured_ratio_lower"], row["measured_ratio_upper"]], [y, y], color=color, linewidth=2)
            if pd.notna(row["measured_ratio"]):
                ax.plot(row["measured_ratio"], y, "o", color=color, markersize=5)
                points.append(float(row["measured_ratio"]))
            labels.append(f"  {label}")
            ratio = f"{row['measured_ratio']:.3g}×" if pd.notna(row["measured_ratio"]) else "no ratio"
            described.append(f"{base['published_variant']} {label}: {ratio}")
        points.append(float(published))
        labels.append("")  # a blank row between figures: the next figure's published row is the one after it
        y += 2
    ratio_rows(ax, points, labels, "whiskers: 99% CI; blue: the switch moves it")
    titled(ax, takeaway(steps), caption, title)
    describe(fig, described)
    ax.grid(axis="x", which="both", linewidth=0.3)
    fig.tight_layout()
    return fig
