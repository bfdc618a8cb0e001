"""Every chart of a report, as data: its file name, the report section it belongs to, the rows it draws and how to draw
them. The writer saves them all; `analysis chart` re-renders one for a post; the chart checks draw them all."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd
from matplotlib.figure import Figure

from analysis.charts import EXPERIMENT_CHARTS, GROUP_CHARTS, cold_start_chart, throughput_chart
from analysis.charts.claims_dots import short_scenario
from analysis.charts.explain_ladder import explain_ladder_chart, ladders
from analysis.compute.cross_language import CROSS_LANGUAGE_CHARTS
from analysis.sections.inputs import COLD_CHARTS, ReportInputs
from harness.config.experiment.experiments import load_experiments


@dataclass(frozen=True)
class ChartSpec:
    """One chart: `name` is its file stem under charts/, `section` the report section that shows it (an experiment
    id, COLD_CHARTS or CROSS_LANGUAGE_CHARTS), `data` the rows written as its CSV."""

    name: str
    section: str
    draw: Callable[[], Figure]
    data: pd.DataFrame


#: A chart's caption from the rows it draws (analysis/charts/style.py caption_for: its runtimes, the host, the run).
Caption = Callable[[pd.DataFrame], str]


def ladder_specs(experiment: str, verdicts: pd.DataFrame, caption: Caption) -> list[ChartSpec]:
    """An explain run's ladders, one per figure (small multiples: a reader looks for one figure, by its name in the
    title and the file's), named `<experiment>-explained-<nn>-<variant>`."""
    specs = []
    for number, (base, switched) in enumerate(ladders(verdicts) if not verdicts.empty else [], 1):
        rows = pd.concat([verdicts.loc[[base.name]], switched])
        variant = str(base["published_variant"])
        title = f"{experiment}: {variant} · {short_scenario(str(base['scenario']), 60)}"
        slug = re.sub(r"[^a-z0-9]+", "-", variant.lower()).strip("-")[:30] or "figure"
        draw = functools.partial(explain_ladder_chart, rows, title, caption(rows))
        specs.append(ChartSpec(f"{experiment}-explained-{number:02d}-{slug}", experiment, draw, rows))
    return specs


def chart_specs(inputs: ReportInputs, caption: Caption) -> list[ChartSpec]:
    """The report's charts in the order it shows them, each captioned with the runtimes of its own rows."""
    specs: list[ChartSpec] = []
    verdicts = inputs.verdicts
    for exp in inputs.experiments:
        primary = (
            verdicts[(verdicts["experiment"] == exp.id) & verdicts["primary"] & (verdicts["metric"] == "time")]
            if not verdicts.empty
            else verdicts
        )
        for chart_name, experiment_chart in EXPERIMENT_CHARTS.items():
            if not primary.empty:
                draw = functools.partial(
                    experiment_chart, primary, f"{exp.id}: published vs measured", caption(primary)
                )
                specs.append(ChartSpec(f"{exp.id}-{chart_name}", exp.id, draw, primary))
        mine = verdicts[verdicts["experiment"] == exp.id] if not verdicts.empty else verdicts
        specs += ladder_specs(exp.id, mine, caption)
        order = {b: i for i, b in enumerate(exp.benchmarks)}
        for spec_group in exp.groups.values():
            rows = inputs.cells[(inputs.cells["experiment"] == exp.id) & (inputs.cells["group"] == spec_group.id)]
            if rows.empty:
                continue
            rows = rows.sort_values(["benchmark"], key=lambda s: s.map(order))
            for chart_name, group_chart in GROUP_CHARTS.items():
                if getattr(group_chart, "applies", lambda _: True)(rows):
                    title = f"{exp.id}: {spec_group.title}"
                    draw = functools.partial(group_chart, rows, title, inputs.levels, caption(rows))
                    specs.append(ChartSpec(f"{exp.id}-{spec_group.id}-{chart_name}", exp.id, draw, rows))
    cold = inputs.cold.groupby(["experiment", "group"], sort=False) if not inputs.cold.empty else ()
    # Cold experiments have no steady cells, so they are not among inputs.experiments: their group titles come from
    # the experiment files.
    titles = {(e.id, g.id): g.title for e in load_experiments().values() for g in e.groups.values()} if cold else {}
    for (experiment, group), table in cold:
        title = f"{experiment}: {titles.get((experiment, group), group)}"
        draw = functools.partial(cold_start_chart, table, title, caption(table))
        specs.append(ChartSpec(f"{experiment}-{group}-cold-start", COLD_CHARTS, draw, table))
    for operation, table in (
        inputs.cross_language.groupby("shared_operation", sort=False) if not inputs.cross_language.empty else ()
    ):
        draw = functools.partial(throughput_chart, table, f"Cross-language: {operation}", caption(table))
        specs.append(ChartSpec(f"cross-language-{operation}", CROSS_LANGUAGE_CHARTS, draw, table))
    return specs
