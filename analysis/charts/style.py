"""The one chart style every figure shares: palette, verdict and change colours, and the subtitle line."""

from __future__ import annotations

import re
import textwrap
from typing import Any

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter

#: Reproduction verdicts → colour (colour-blind safe: Okabe–Ito).
VERDICT_COLORS = {
    "reproduced": "#009E73",
    "inconclusive": "#E69F00",
    "same direction only": "#56B4E9",
    "not reproduced": "#D55E00",
    "void: verification failed": "#999999",
    "not measured": "#CCCCCC",
}

#: Run-to-run changes → colour.
CHANGE_COLORS = {"faster": "#009E73", "slower": "#D55E00", "same": "#56B4E9", "inconclusive": "#E69F00"}


def caption_for(env: dict[str, Any], run: dict[str, Any]) -> str:
    """'Intel Xeon … · 2 CPUs (VM) · .NET 10.0.12 · 2026-11-23 · run <id>': where and when a chart's numbers came
    from."""
    runtimes = ", ".join(
        sorted(
            {
                lab["env"].get("runtime_description") or lab["env"].get("runtime", "?")
                for lab in env.get("labs", {}).values()
            }
        )
    )
    vm = " (VM)" if env.get("hypervisor") else ""
    return (
        f"{env.get('cpu_model', '?')} · {env.get('logical_cpus', '?')} CPUs{vm} · {runtimes or '?'} · "
        f"{(env.get('captured_at') or '?')[:10]} · run {run.get('run_id', '?')}"
    )


def titled(ax: Axes, title: str, caption: str) -> None:
    """The chart's title, and under it the machine/runtime/date line (above the plot, clear of each other)."""
    lines = caption.count("\n") + 1 if caption else 0
    ax.set_title(title, fontsize=10, loc="left", pad=6 + 10 * lines)
    if caption:
        ax.annotate(
            caption,
            xy=(0, 1),
            xycoords="axes fraction",
            xytext=(0, 4),
            textcoords="offset points",
            fontsize=7,
            color="#555555",
            va="bottom",
        )


def ratio_axis(ax: Axes) -> None:
    """A logarithmic ratio axis labelled 0.5×, 1×, 2× rather than in powers of ten."""
    ax.set_xscale("log")
    formatter = FuncFormatter(lambda x, _: f"{x:.3g}×")
    ax.xaxis.set_major_formatter(formatter)
    # Minor ticks sit at 2–9 × each power of ten; label the ones a reader uses (0.2, 0.3, 0.5, 2, 3, 5).
    ax.xaxis.set_minor_formatter(FuncFormatter(lambda x, _: f"{x:.2g}×" if f"{x:.1e}"[0] in "235" else ""))
    ax.tick_params(axis="x", which="both", labelsize=7)


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
