"""Checks a drawn chart must pass before a blogger can paste it: no two texts overlap, no text crosses an error bar, bar
charts are sorted, nothing names the machine that made it. matplotlib knows every artist's extent once the figure is
drawn, so these are measurements of the figure, not of its source code."""

from __future__ import annotations

import getpass
import re
import socket
from collections.abc import Iterable

from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.text import Text
from matplotlib.transforms import Bbox

#: An absolute path in text a reader sees (a log file, a checkout) — charts and reports name files relative to the run.
ABSOLUTE_PATH = re.compile(r"(?<![\w.:/<])/(?:root|home|tmp|work|var|usr|opt|srv|mnt)/[\w.+@/-]+")


def _texts(fig: Figure) -> list[Text]:
    renderer = fig.canvas.get_renderer()
    out = []
    for text in fig.findobj(Text):
        if not text.get_visible() or not text.get_text().strip():
            continue
        box = text.get_window_extent(renderer)
        if box.width > 0 and box.height > 0:
            out.append(text)
    return out


def _extent(text: Text, fig: Figure) -> Bbox:
    # A hair smaller than drawn: glyph boxes of adjacent lines touch without overlapping the ink.
    return text.get_window_extent(fig.canvas.get_renderer()).expanded(0.97, 0.9)


def overlapping_texts(fig: Figure) -> list[tuple[str, str]]:
    """Pairs of visible texts whose drawn extents overlap."""
    fig.canvas.draw()
    texts = _texts(fig)
    boxes = [_extent(t, fig) for t in texts]
    pairs = []
    for i in range(len(texts)):
        for j in range(i + 1, len(texts)):
            if boxes[i].overlaps(boxes[j]):
                pairs.append((texts[i].get_text(), texts[j].get_text()))
    return pairs


def _error_segments(fig: Figure) -> Iterable[tuple[tuple[float, float], tuple[float, float]]]:
    for ax in fig.axes:
        for collection in ax.collections:
            if not isinstance(collection, LineCollection):
                continue
            transform = collection.get_transform()
            for path in collection.get_paths():
                points = transform.transform(path.vertices)
                for a, b in zip(points[:-1], points[1:]):
                    yield (a[0], a[1]), (b[0], b[1])


def _segment_hits(box: Bbox, a: tuple[float, float], b: tuple[float, float], steps: int = 24) -> bool:
    return any(
        box.contains(a[0] + (b[0] - a[0]) * k / steps, a[1] + (b[1] - a[1]) * k / steps) for k in range(steps + 1)
    )


def texts_on_error_bars(fig: Figure) -> list[str]:
    """Texts drawn across an error bar (its line or whisker)."""
    fig.canvas.draw()
    segments = list(_error_segments(fig))
    return [
        t.get_text()
        for t in _texts(fig)
        if any(_segment_hits(_extent(t, fig).shrunk(0.95, 0.6), a, b) for a, b in segments)
    ]


def bar_order(fig: Figure) -> list[list[float]]:
    """Per axes, the right ends of its horizontal bars from the top of the chart to the bottom (one value per bar row;
    stacked bars of a row count as one), for checking an order."""
    fig.canvas.draw()
    orders = []
    for ax in fig.axes:
        rows: dict[float, float] = {}
        for patch in ax.patches:
            y = round(patch.get_y() + patch.get_height() / 2, 3)
            rows[y] = max(rows.get(y, 0.0), patch.get_x() + patch.get_width())
        if rows:
            inverted = ax.yaxis_inverted()
            orders.append([rows[y] for y in sorted(rows, reverse=not inverted)])
    return orders


def local_names(text: str) -> list[str]:
    """What in a chart's or report's text names the machine that made it: absolute paths, its host or user name."""
    found = ABSOLUTE_PATH.findall(text)
    for name in {socket.gethostname(), getpass.getuser()} - {"root", "localhost", ""}:
        if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text):
            found.append(name)
    return found
