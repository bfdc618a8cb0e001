"""ClaimsDotChart: published against measured ratios for one experiment's claims.

One row per claim (primary ISA level, time metric): the published ratio as a hollow diamond inside its
±tolerance band, the measured ratio as a dot with its 99% CI as whiskers, coloured by verdict. The
x axis is logarithmic, so 0.5× and 2× sit at the same distance from 1."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

from analysis.charts.style import VERDICT_COLORS, describe, ratio_axis, titled  # noqa: E402
from harness.model.judging import REPRODUCED, TOLERANCE  # noqa: E402


def short_scenario(scenario: str, width: int = 48) -> str:
    """A figure's scenario cut to `width` characters for a row label."""
    return scenario if len(scenario) <= width else scenario[: width - 1] + "…"


def _label(row) -> str:
    return f"{row.published_variant}\n{short_scenario(row.scenario)}"


def takeaway(verdicts: pd.DataFrame) -> str:
    """'12 of 15 published ratios reproduced within ±15% (2 inconclusive)': verdicts counted by kind, the reason after
    ': ' left to the table ('1 unavailable', not the whole 'unavailable: not measured: …' sentence in a chart title)."""
    counts = verdicts["verdict"].str.split(": ").str[0].value_counts()
    reproduced = int(counts.get(REPRODUCED, 0))
    others = [f"{int(n)} {v}" for v, n in counts.items() if v != REPRODUCED]
    return f"{reproduced} of {len(verdicts)} published ratios reproduced within ±{TOLERANCE:.0%}" + (
        f" ({', '.join(others)})" if others else ""
    )


def published_mark(ax, y: float, published: float) -> None:
    """The published ratio at row y: a hollow diamond inside its ±tolerance band."""
    ax.fill_betweenx(
        [y - 0.3, y + 0.3], published * (1 - TOLERANCE), published * (1 + TOLERANCE), color="#eeeeee", zorder=0
    )
    ax.plot(published, y, marker="D", markersize=6, markerfacecolor="white", markeredgecolor="#222222", zorder=3)


def ratio_rows(ax, points: list[float], labels: list[str], whiskers: str) -> None:
    """A log ratio axis spanning `points` (and 1) with one labelled row per label, top to bottom; `whiskers` says what
    the measured whiskers are."""
    ratio_axis(ax)
    ax.set_xlim(min(points) / 1.5, max(points) * 1.5)
    ax.axvline(1.0, color="#888888", linewidth=0.8)
    ax.set_yticks(range(len(labels)), labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel(
        f"ratio to the claim's baseline (log scale); grey band: published ±{TOLERANCE:.0%}; {whiskers}", fontsize=8
    )


def claims_chart(verdicts: pd.DataFrame, title: str, caption: str) -> Figure:
    """Figure for the primary time verdicts of one experiment (verdict_table() rows, in table order)."""
    fig, ax = plt.subplots(figsize=(8, 1.5 + 0.42 * len(verdicts)))
    for y, row in enumerate(verdicts.itertuples()):
        published_mark(ax, y, row.published_ratio)
        if pd.notna(row.measured_ratio):
            color = VERDICT_COLORS.get(row.verdict, "#555555")
            if pd.notna(row.measured_ratio_lower) and pd.notna(row.measured_ratio_upper):
                ax.plot(
                    [row.measured_ratio_lower, row.measured_ratio_upper], [y, y], color=color, linewidth=2, zorder=2
                )
            ax.plot(row.measured_ratio, y, "o", color=color, markersize=5, zorder=4)
    # The axis spans the published and measured points (and 1), not an interval from very few processes that can reach
    # from 0.01× to 50×; such a whisker is cut at the edge.
    points = [v for v in (*verdicts["published_ratio"], *verdicts["measured_ratio"], 1.0) if pd.notna(v) and v > 0]
    labels = [_label(r) for r in verdicts.itertuples()]
    ratio_rows(ax, points, labels, "whiskers: 99% CI over paired processes")
    titled(ax, takeaway(verdicts), caption, title)
    describe(
        fig,
        [
            f"{r.published_variant}: published {r.published_ratio:.3g}×, measured "
            + (f"{r.measured_ratio:.3g}×" if pd.notna(r.measured_ratio) else "none")
            + f", {r.verdict}"
            for r in verdicts.itertuples()
        ],
    )
    used = [v for v in VERDICT_COLORS if v in set(verdicts["verdict"])]
    handles = [Line2D([0], [0], marker="D", color="white", markeredgecolor="#222222", label="published")]
    handles += [Line2D([0], [0], marker="o", color=VERDICT_COLORS[v], label=v) for v in used]
    ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    ax.grid(axis="x", which="both", linewidth=0.3)
    fig.tight_layout()
    return fig
