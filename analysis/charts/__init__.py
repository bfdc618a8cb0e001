"""Charts: each module turns a tidy DataFrame into a matplotlib Figure; save.py renders the bytes."""

from analysis.charts.claims_dots import claims_chart
from analysis.charts.cold_start import cold_start_chart
from analysis.charts.compare_dots import compare_dot_chart
from analysis.charts.ratio_bars import ratio_bar_chart
from analysis.charts.runtime_sweep import runtime_sweep_chart
from analysis.charts.save import render_figure
from analysis.charts.throughput import throughput_chart

#: The visible registry of per-group charts: name → function(cells, title, levels, caption) → Figure. A chart with an
#: `applies(cells)` attribute is drawn only for the groups it returns True for.
GROUP_CHARTS = {"ratio-bars": ratio_bar_chart, "runtime-sweep": runtime_sweep_chart}

#: The visible registry of per-experiment charts: name → function(primary time verdicts, title, caption) → Figure.
EXPERIMENT_CHARTS = {"published-vs-measured": claims_chart}

__all__ = [
    "EXPERIMENT_CHARTS",
    "GROUP_CHARTS",
    "claims_chart",
    "cold_start_chart",
    "compare_dot_chart",
    "ratio_bar_chart",
    "render_figure",
    "runtime_sweep_chart",
    "throughput_chart",
]
