"""Checks a drawn chart must pass before a blogger can paste it: no two texts overlap, no text crosses an error bar, bar
charts are sorted, nothing names the machine that made it. matplotlib knows every artist's extent once the figure is
drawn, so these are measurements of the figure, not of its source code."""

from __future__ import annotations

import getpass
import math
import re
import socket
from collections.abc import Iterable

from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.text import Text
from matplotlib.transforms import Bbox

#: An absolute path that says where this machine keeps its files (a home, a checkout, a temporary run folder): charts
#: and reports name files relative to the run. System install locations (/usr/share/dotnet in a row's runtime
#: switches) say nothing about the machine and are not counted.
ABSOLUTE_PATH = re.compile(r"(?<![\w.:/<])/(?:root|home|tmp|work|var|srv|mnt|media)/[\w.+@/-]+")


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


def _error_segments(fig: Figure) -> Iterable[tuple[tuple[float, float], tuple[float, float], Bbox]]:
    """Every error-bar segment in display coordinates, with the axes area that clips it when drawn (a whisker of an
    interval from very few processes can run far beyond the axes; only what is drawn can cover a text)."""
    for ax in fig.axes:
        for collection in ax.collections:
            if not isinstance(collection, LineCollection):
                continue
            transform = collection.get_transform()
            clip = ax.bbox if collection.get_clip_on() else fig.bbox
            for path in collection.get_paths():
                points = transform.transform(path.vertices)
                for a, b in zip(points[:-1], points[1:]):
                    yield (a[0], a[1]), (b[0], b[1]), clip


def _clipped(
    a: tuple[float, float], b: tuple[float, float], clip: Bbox
) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The part of segment a–b inside `clip` (Liang–Barsky), or None; infinite ends (a log axis at 0) are cut at the
    box first, a NaN end drops the segment."""
    if any(math.isnan(v) for v in (*a, *b)):
        return None
    big = 1e9
    (x0, y0), (x1, y1) = ((max(-big, min(big, v)) for v in p) for p in (a, b))
    dx, dy = x1 - x0, y1 - y0
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, x0 - clip.x0), (dx, clip.x1 - x0), (-dy, y0 - clip.y0), (dy, clip.y1 - y0)):
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    return (x0 + t0 * dx, y0 + t0 * dy), (x0 + t1 * dx, y0 + t1 * dy)


def _segment_hits(box: Bbox, a: tuple[float, float], b: tuple[float, float], clip: Bbox, steps: int = 48) -> bool:
    """Whether the drawn part of segment a–b passes through `box`."""
    drawn = _clipped(a, b, clip)
    if drawn is None:
        return False
    (x0, y0), (x1, y1) = drawn
    return any(box.contains(x0 + (x1 - x0) * k / steps, y0 + (y1 - y0) * k / steps) for k in range(steps + 1))


def texts_on_error_bars(fig: Figure) -> list[str]:
    """Texts drawn across an error bar (its line or whisker), as far as the bar is drawn."""
    fig.canvas.draw()
    segments = list(_error_segments(fig))
    return [
        t.get_text()
        for t in _texts(fig)
        if any(_segment_hits(_extent(t, fig).shrunk(0.95, 0.6), a, b, clip) for a, b, clip in segments)
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
