"""The one chart style every figure shares: palette, library, verdict and change colours, the title (the chart's
finding) with its subtitle and caption, ratio axes, bounded notes, alt text and the light or dark theme."""

from __future__ import annotations

import math
import re
import textwrap
import weakref

import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

from harness.model.cells import Cell
from harness.model.folder.environment_record import EnvironmentRecord
from harness.model.folder.run_records import RunRecord
from harness.model.judging import INCONCLUSIVE, NOT_MEASURED, NOT_REPRODUCED, REPRODUCED, SAME_DIRECTION, VOID

#: Reproduction verdicts → colour (colour-blind safe: Okabe–Ito).
VERDICT_COLORS = {
    REPRODUCED: "#009E73",
    INCONCLUSIVE: "#E69F00",
    SAME_DIRECTION: "#56B4E9",
    NOT_REPRODUCED: "#D55E00",
    VOID: "#999999",
    NOT_MEASURED: "#CCCCCC",
}

#: Library → colour, the same in every chart (colour-blind safe: Okabe–Ito first, then Paul Tol's muted scheme for the
#: libraries past its eight). A library not listed gets a grey.
LIBRARY_COLORS = {
    "System.Text.Json": "#0072B2",
    "System.Text.Json (source generated)": "#56B4E9",
    "Newtonsoft.Json": "#E69F00",
    "SpanJson": "#009E73",
    "Utf8Json": "#CC79A7",
    "Jil": "#D55E00",
    "NetJSON": "#F0E442",
    "ServiceStack.Text": "#000000",
    "JsonSrcGen": "#882255",
    "JSON (V8 built-in)": "#44AA99",
    "fast-json-stringify": "#999933",
    "simdjson": "#332288",
    "RapidJSON": "#88CCEE",
    "nlohmann/json": "#AA4499",
    "NeedsEscaping": "#0072B2",
}
OTHER_LIBRARY_COLOR = "#999999"


def library_color(library: str) -> str:
    """The colour of a library's bars and points in every chart."""
    return LIBRARY_COLORS.get(library, OTHER_LIBRARY_COLOR)


#: Run-to-run changes → colour.
CHANGE_COLORS = {"faster": "#009E73", "slower": "#D55E00", "same": "#56B4E9", INCONCLUSIVE: "#E69F00"}


def caption_for(env: EnvironmentRecord | None, run: RunRecord, rows: pd.DataFrame | None = None) -> str:
    """'Intel Xeon … · 2 CPUs (VM) · .NET 10.0.12 · 2026-11-23 · run <id>': where and when a chart's numbers came
    from; with the chart's `rows`, only the runtimes those rows were measured on (every runtime of the run without)."""
    if env is None:
        return f"host not recorded · run {run.run_id}"
    vm = " (VM)" if env.hypervisor else ""
    shown = chart_runtimes(env, rows) if rows is not None else None
    runtimes = ", ".join(shown if shown is not None else env.runtime_descriptions) or "?"
    return (
        f"{env.cpu_model or '?'} · {env.logical_cpus} CPUs{vm} · {runtimes} · {env.captured_at[:10]} · run {run.run_id}"
    )


def chart_runtimes(env: EnvironmentRecord, rows: pd.DataFrame) -> list[str] | None:
    """The runtimes a chart's rows were measured on, as their lab builds describe themselves ('.NET 8.0.0'), sorted;
    None when the rows do not say (the caption then names every runtime of the run)."""
    if "lab" in rows and ("runtime_requested" in rows or "runtime" in rows):
        column = "runtime_requested" if "runtime_requested" in rows else "runtime"
        targets = {Cell.target_of(str(lab), str(runtime)) for lab, runtime in zip(rows["lab"], rows[column])}
        return sorted({env.labs[t].runtime_description for t in targets if t in env.labs})
    if "measured_runtime" in rows:
        return sorted({str(r) for r in rows["measured_runtime"].dropna()})
    return None


#: Each figure's alt text: its finding and subtitle (set by titled()), then the numbers it shows (describe()).
_ALT_HEADING: weakref.WeakKeyDictionary[Figure, str] = weakref.WeakKeyDictionary()
_ALT_ITEMS: weakref.WeakKeyDictionary[Figure, list[str]] = weakref.WeakKeyDictionary()
#: An alt text longer than this is cut (screen readers read it whole; the CSV beside the chart has every number).
ALT_CHARS = 1500


def describe(fig: Figure, items: list[str]) -> None:
    """Adds what a chart shows, one item per bar or point ('SpanJson 4.0.1: 0.41× ±2.0%'), to its alt text."""
    _ALT_ITEMS.setdefault(fig, []).extend(item for item in items if item)


def alt_text(fig: Figure) -> str:
    """The figure's alt text: its finding, what was measured, then its numbers; one line."""
    text = ". ".join(part for part in (_ALT_HEADING.get(fig, ""), "; ".join(_ALT_ITEMS.get(fig, []))) if part)
    text = " ".join(text.split())
    return text if len(text) <= ALT_CHARS else text[: ALT_CHARS - 1] + "…"


#: A title longer than this wraps (a chart reads at 800 pixels wide); so do the subtitle and caption lines.
TITLE_CHARS = 95
CAPTION_CHARS = 130


def titled(ax: Axes, title: str, caption: str, subtitle: str = "") -> None:
    """The chart's title (its finding, one line), under it the subtitle (what was measured) and the
    machine/runtime/date line, above the plot and clear of each other."""
    _ALT_HEADING[ax.figure] = f"{title}. {subtitle}" if subtitle else title
    # Each line wrapped to the chart's width: a caption naming every runtime of every lab once ran to 3,000 pixels and
    # squeezed the plot to nothing.
    below = "\n".join(
        textwrap.fill(line, CAPTION_CHARS) for part in (subtitle, caption) if part for line in part.splitlines()
    )
    lines = below.count("\n") + 1 if below else 0
    ax.set_title(textwrap.fill(title, TITLE_CHARS), fontsize=10, loc="left", pad=6 + 10 * lines, fontweight="bold")
    if below:
        ax.annotate(
            below,
            xy=(0, 1),
            xycoords="axes fraction",
            xytext=(0, 4),
            textcoords="offset points",
            fontsize=7,
            color="#555555",
            va="bottom",
        )


#: A tick this close to either end of a log axis (as a fraction of its length) gets no label: half of it would stand
#: outside the plot, on the axis title or the notes below.
EDGE_FRACTION = 0.04


def ratio_axis(ax: Axes, which: str = "x") -> None:
    """A logarithmic ratio axis labelled 0.5×, 1×, 2× rather than in powers of ten."""
    axis = ax.xaxis if which == "x" else ax.yaxis
    (ax.set_xscale if which == "x" else ax.set_yscale)("log")

    def inside(x: float) -> bool:
        low, high = sorted(axis.get_view_interval())
        if low <= 0 or high <= low or x <= 0:
            return True
        share = (math.log(x) - math.log(low)) / (math.log(high) - math.log(low))
        return EDGE_FRACTION <= share <= 1 - EDGE_FRACTION

    axis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:.3g}×" if inside(x) else ""))

    def minor(x: float, _: int) -> str:
        # Minor ticks sit at 2–9 × each power of ten; label the ones a reader uses (0.2, 0.3, 0.5, 2, 3, 5), on an axis
        # shorter than a decade a few more (0.4, 0.6, 0.8), so it never shows one label alone, on a long one fewer.
        low, high = sorted(axis.get_view_interval())
        decades = math.log10(high / low) if low > 0 and high > low else 0.0
        # Fewer minor labels the more decades the axis spans: they would run into each other.
        shown = "234568" if decades < 1 else "235" if decades < 2 else "25" if decades < 3 else ""
        return f"{x:.2g}×" if f"{x:.1e}"[0] in shown and inside(x) else ""

    axis.set_minor_formatter(FuncFormatter(minor))
    ax.tick_params(axis=which, which="both", labelsize=7)


#: At most this many notes under a chart, each one line of at most NOTE_CHARS characters: a failed cell's error can be
#: pages long (a stack trace), and drawn whole it once made a figure 262,254 pixels tall, which matplotlib refuses
#: to save.
MAX_NOTES = 8
NOTE_CHARS = 200

#: An absolute path (a log file on the machine that ran the cell): a chart names the file only.
_ABSOLUTE_PATH = re.compile(r"(?<![\w.])/(?:[\w.+@-]+/)+([\w.+@-]+)")


def _bounded(note: str) -> str:
    """A note's first line, absolute paths cut to their file name, at most NOTE_CHARS characters."""
    line = _ABSOLUTE_PATH.sub(r"\1", (note.strip().splitlines() or [""])[0])
    return line if len(line) <= NOTE_CHARS else line[: NOTE_CHARS - 1] + "…"


def finish(fig: Figure, notes: list[str], color: str = "#c0392b") -> Figure:
    """Lays the figure out, with the notes (what was not drawn, and why) under the plot, the figure grown to fit."""
    if not notes:
        fig.tight_layout()
        return fig
    shown = [_bounded(note) for note in notes[:MAX_NOTES]]
    if len(notes) > MAX_NOTES:
        shown.append(f"… and {len(notes) - MAX_NOTES} more (the chart's CSV and the report list every one)")
    text = "\n".join(textwrap.fill(note, 150) for note in shown)
    fig.text(0.01, 0.005, text, fontsize=6.5, color=color, va="bottom", ha="left")
    fig.set_figheight(fig.get_figheight() + 0.16 * (text.count("\n") + 1))
    fig.tight_layout(rect=(0, 0.16 * (text.count("\n") + 1) / fig.get_figheight() + 0.01, 1, 1))
    return fig


THEMES = ("light", "dark")
#: The dark theme's page colour.
DARK_BACKGROUND = "#111418"


def _dark_grey(rgba: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """A grey (text, axes, error bars, bands, white fills) with its lightness turned over for a dark page; colours (a
    library's, a verdict's) kept as they are."""
    r, g, b, a = rgba
    if max(r, g, b) - min(r, g, b) > 0.06:
        return rgba
    lightness = 0.1 + 0.85 * (1 - (r + g + b) / 3)
    return (lightness, lightness, lightness, a)


def apply_theme(fig: Figure, theme: str) -> Figure:
    """The figure in the light theme (as drawn) or the dark one (greys turned over, colours kept)."""
    if theme not in THEMES:
        raise ValueError(f"unknown theme '{theme}': {', '.join(THEMES)}")
    if theme == "light":
        return fig
    from matplotlib.colors import to_rgba, to_rgba_array

    for artist in fig.findobj():
        for name in ("color", "edgecolor", "facecolor", "markeredgecolor", "markerfacecolor"):
            getter, setter = getattr(artist, f"get_{name}", None), getattr(artist, f"set_{name}", None)
            if getter is None or setter is None:
                continue
            try:
                value = getter()
                if isinstance(value, str) and value in ("none", "None", "auto"):
                    continue
                colors = to_rgba_array(value)
                if len(colors) == 0:
                    continue
                turned = [_dark_grey((c[0], c[1], c[2], c[3])) for c in colors]
                setter(turned[0] if len(turned) == 1 and not hasattr(value, "shape") else turned)
            except (TypeError, ValueError):
                continue
    fig.patch.set_facecolor(DARK_BACKGROUND)
    for ax in fig.axes:
        ax.set_facecolor(to_rgba(DARK_BACKGROUND))
    return fig
