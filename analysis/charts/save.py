"""Rendering a Figure to PNG and SVG bytes (the writer puts them on disk).

Charts are drawn 8 inches wide, so they read at 800 pixels; the PNG is rendered at twice that (200 dpi) for high-density
screens, and the SVG keeps its text as text (searchable, restyleable, sharp at any size)."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")  # headless: charts are files, never windows
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

FORMATS = ("png", "svg")
#: 2× of a 100-dpi page: an 8-inch chart becomes a 1,600-pixel PNG shown at 800.
PNG_DPI = 200
matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text in the SVG
matplotlib.rcParams["text.parse_math"] = False  # a "$" in a title from an experiment file is a dollar, not TeX


def render_figure(fig: Figure) -> dict[str, bytes]:
    """{'png': …, 'svg': …}; the figure is closed afterwards."""
    out = {}
    for fmt in FORMATS:
        buffer = io.BytesIO()
        # Fixed metadata keeps SVG output stable across runs of the same data.
        fig.savefig(
            buffer, format=fmt, dpi=PNG_DPI, bbox_inches="tight", metadata={"Date": None} if fmt == "svg" else None
        )
        out[fmt] = buffer.getvalue()
    plt.close(fig)
    return out
