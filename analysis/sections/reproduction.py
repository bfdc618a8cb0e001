"""Reproduction: every published figure beside its measurement, with its verdict; coverage."""

from __future__ import annotations

import pandas as pd

from analysis.compute.verdicts.coverage import coverage
from analysis.formatting.tables import markdown_table, reproduction_markdown
from harness.model.experiment import Experiment
from harness.model.judging import PARITY_BAND, TOLERANCE
from harness.model.published_stability import UNSTABLE_MIN_GAP, UNSTABLE_STDDEV


def reproduction_section(
    experiments: list[Experiment], verdicts: pd.DataFrame, cells: pd.DataFrame | None = None
) -> str:
    """The published-vs-measured table with its legend and rules (one sentence when the run judged no claim)."""
    if verdicts.empty and (cells is None or coverage(experiments, cells, verdicts).empty):
        return (
            "## Reproduction of published claims\n\nThis run measured no published claim: its experiments "
            f"({', '.join(e.id for e in experiments) or 'none with steady-state cells'}) have none to compare "
            "(cold starts are in their own section).\n"
        )
    hardware = {h.key: h for exp in experiments for h in exp.hardware.values()}
    legend = "\n".join(
        f"- **{h.runtime}** ({h.key}): {h.description}; compared at ISA level `{h.isa_level}`."
        for h in hardware.values()
    )
    return (
        "## Reproduction of published claims\n\n"
        "Ratios to each claim's baseline are compared, never absolute times, and the measured ratio's 99% interval "
        "(over paired processes) is judged, not its point. **reproduced**: the whole interval lies within "
        f"±{TOLERANCE:.0%} of the "
        "published ratio; **inconclusive**: the interval straddles that band's edge (or there is only one process); "
        "**same direction only**: the interval lies outside the band, on the published side of 1 (beyond "
        f"±{PARITY_BAND:.0%}); "
        "**not reproduced**: otherwise; **void: verification failed**: the variant or its baseline does not reproduce "
        "the "
        "input, so the published comparison measured a different thing. Allocations are deterministic per operation "
        "and are "
        "judged as points; each published Allocated figure also gets a verdict in bytes per operation (last but one "
        "column): "
        "**equal**, **within tolerance** (the experiment's or the claim's `allocated_tolerance_bytes`, e.g. the "
        "rounding of a "
        "figure printed in KB) or **differs**; a table's baseline has no ratio, only that (**bytes only**). "
        "Where the write-up printed its rows' Error, StdDev, Min and Median, the published table's own evidence stands "
        "beside the figure: the published ratio's own interval from both rows' Error (99.9 %), and whether a row was "
        f"unstable in the publisher's run (StdDev over {UNSTABLE_STDDEV:.0%} of its mean, or its minimum more than "
        f"{UNSTABLE_MIN_GAP:.0%} below its median): weaker evidence, named in the figure's explanation. "
        "Verdicts at every ISA level: [tables/reproduction.csv](tables/reproduction.csv).\n\n"
        f"{legend}\n\n"
        + ("" if cells is None else coverage_markdown(experiments, cells, verdicts) + "\n")
        + reproduction_markdown(verdicts)
    )


def coverage_markdown(experiments: list[Experiment], cells: pd.DataFrame, verdicts: pd.DataFrame) -> str:
    """How every published figure of the write-ups is accounted for in this run."""
    table = coverage(experiments, cells, verdicts)
    if table.empty:
        return ""
    counts = table.groupby(["experiment", "status"]).size().unstack(fill_value=0)
    statuses = list(counts.columns)
    rows = [[exp, *[int(counts.loc[exp, s]) for s in statuses], int(counts.loc[exp].sum())] for exp in counts.index]
    rows.append(["all", *[int(counts[s].sum()) for s in statuses], int(counts.values.sum())])
    return (
        "### Every published figure\n\n**compared**: a measured ratio and verdict below; **baseline, measured**: the "
        "figure is its table's baseline (ratio 1 by definition), and its cell is measured (absolute time in the "
        "experiment's table); **cannot reproduce**: the reason is in the table below; **failed**: the library could "
        "not run here (reason below); **not in this run**: the profile did not plan it (`just run-all full` does). "
        "One row per figure in `tables/coverage.csv`.\n\n" + markdown_table(["Experiment", *statuses, "Figures"], rows)
    )
