"""Rendering a Figure to PNG and SVG bytes (the writer puts them on disk)."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")  # headless: charts are files, never windows
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

FORMATS = ("png", "svg")


def render_figure(fig: Figure) -> dict[str, bytes]:
    """{'png': …, 'svg': …}; the figure is closed afterwards."""
    out = {}
    for fmt in FORMATS:
        buffer = io.BytesIO()
        # Fixed metadata keeps SVG output stable across runs of the same data.
        fig.savefig(buffer, format=fmt, dpi=150, bbox_inches="tight", metadata={"Date": None} if fmt == "svg" else None)
        out[fmt] = buffer.getvalue()
    plt.close(fig)
    return out
