"""Charts: each module turns a tidy DataFrame into a matplotlib Figure; save.py renders the bytes."""

from analysis.charts.ratio_bars import ratio_bar_chart
from analysis.charts.save import render_figure

#: The visible registry of per-group charts: name → function(cells, title, levels) → Figure.
GROUP_CHARTS = {"ratio-bars": ratio_bar_chart}

__all__ = ["GROUP_CHARTS", "ratio_bar_chart", "render_figure"]
