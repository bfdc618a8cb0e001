"""Per experiment: its tables of cells and its charts."""

from __future__ import annotations

import pandas as pd
from analysis.charts.refs import ChartRef
from analysis.render.tables import experiment_markdown
from harness.config.experiments import Experiment


def experiments_markdown(
    experiments: list[Experiment], cells: pd.DataFrame, levels: list[str], charts: dict[str, list[ChartRef]]
) -> str:
    """Per experiment: its tables, charts and CSV."""
    parts = []
    for exp in experiments:
        if exp.id not in set(cells["experiment"]):
            continue
        images = "\n".join(chart.markdown() for chart in charts.get(exp.id, []))
        notes = "\n".join(f"- `{b.id}`: {b.note}" for b in exp.benchmarks.values() if b.note)
        parts.append(
            f"## Experiment {exp.id}: {exp.title}\n\nWrite-up: "
            f"{exp.writeup}.\n\n{experiment_markdown(exp, cells, levels)}\n"
            f"{images}\n\n{notes}\n\nAll rows: [tables/{exp.id}.csv](tables/{exp.id}.csv).\n"
        )
    return "\n".join(parts)
