"""Per experiment: its tables of cells and its charts."""

from __future__ import annotations

import pandas as pd

from analysis.compute.verdicts.chart_refs import ChartRef
from analysis.formatting.tables import experiment_markdown
from harness.model.experiment import Experiment
from harness.model.folder.records import SINGLE_SHOT


def method_line(exp: Experiment) -> str:
    """What an experiment's times are when they are not the steady state: a single-shot experiment says what each
    process timed and what it did not."""
    shot = exp.single_shot
    if exp.measure != SINGLE_SHOT or shot is None:
        return ""
    warmup = (
        f"warmed up with {shot.warmup_calls} call(s) of the same variant on `{shot.warmup_dataset}`"
        if shot.warmup_calls
        else "did not warm up"
    )
    return (
        f"Method: **single shot**. Each fresh process read its input into memory, {warmup}, then timed "
        f"{shot.calls} call(s) on the input, each alone. Not in the times: process and runtime start, reading the "
        "file, the warm-up, and the verification (made after the timed calls, on the same input). Processes are the "
        "replicates, each cell in its own process, the cells of a group in a fresh order each round; a ratio pairs the "
        "processes of one round. The resident set is read before the timed calls and at their peak (the kernel's "
        "peak mark reset just before them).\n\n"
    )


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
            f"{exp.writeup}.\n\n{method_line(exp)}{experiment_markdown(exp, cells, levels)}\n"
            f"{images}\n\n{notes}\n\nAll rows: [tables/{exp.id}.csv](tables/{exp.id}.csv).\n"
        )
    return "\n".join(parts)
