"""Writes a run's report folder: report.md, reproduction.md, tables/*.csv, charts/*.png|svg.

Everything is computed first; this is the one place that touches the disk. When one chart or
table fails it is logged and the rest are still written.
"""

from __future__ import annotations

import logging
import pathlib

import pandas as pd

from analysis.aggregate import with_ratios
from analysis.charts import GROUP_CHARTS, render_figure
from analysis.defaults import REPORT_DIR
from analysis.load import load_run
from analysis.report import compose_report, reproduction_section
from analysis.replicates import summarize_cells
from analysis.tables import to_csv
from analysis.verdicts import verdict_table
from harness.experiments import Experiment, load_experiments

log = logging.getLogger(__name__)


def _levels(cells: pd.DataFrame) -> list[str]:
    return cells.sort_values("isa_rank")["isa_requested"].drop_duplicates().tolist()


def _write(path: pathlib.Path, data: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode())


def _write_charts(out: pathlib.Path, experiments: list[Experiment], cells: pd.DataFrame, levels: list[str]) -> dict[str, list[str]]:
    written: dict[str, list[str]] = {}
    for exp in experiments:
        for group in exp.groups.values():
            rows = cells[(cells["experiment"] == exp.id) & (cells["group"] == group.id)]
            if rows.empty:
                continue
            order = {b: i for i, b in enumerate(exp.benchmarks)}
            rows = rows.sort_values(["benchmark"], key=lambda s: s.map(order))
            for chart_name, chart in GROUP_CHARTS.items():
                name = f"{exp.id}-{group.id}-{chart_name}"
                try:
                    for fmt, data in render_figure(chart(rows, f"{exp.id}: {group.title}", levels)).items():
                        _write(out / "charts" / f"{name}.{fmt}", data)
                    written.setdefault(exp.id, []).append(name)
                except Exception:  # one broken chart must not lose the report
                    log.exception("chart %s failed; the rest of the report is still written", name)
    return written


def write_report(run_dir: pathlib.Path, experiments_dir: pathlib.Path | None = None) -> pathlib.Path:
    """Renders the report of one run folder; returns the path of report.md."""
    data = load_run(run_dir)
    all_experiments = load_experiments(experiments_dir) if experiments_dir else load_experiments()
    cells = with_ratios(summarize_cells(data.rows), data.rows)
    experiments = [e for e in all_experiments.values() if e.id in set(cells["experiment"])]
    levels = _levels(cells)
    verdicts = verdict_table(experiments, cells, data.rows)
    out = data.directory / REPORT_DIR
    _write(out / "tables" / "results.csv", to_csv(cells))
    _write(out / "tables" / "rounds.csv", to_csv(data.rows))
    _write(out / "tables" / "reproduction.csv", to_csv(verdicts))
    for exp in experiments:
        _write(out / "tables" / f"{exp.id}.csv", to_csv(cells[cells["experiment"] == exp.id]))
    charts = _write_charts(out, experiments, cells, levels)
    _write(out / "reproduction.md", reproduction_section(experiments, verdicts))
    report = out / "report.md"
    _write(report, compose_report(experiments, cells, verdicts, data.environment, data.run, levels, charts))
    return report
