"""A run's lines of the store's `verdicts` table: each published figure judged as the run's report judges it, by the
report's own code (analysis/compute: the run's steady-state rows summarized into cells with ratios, the experiments
the run kept, verdict_table), never by rules of its own. One line per figure, metric, ISA level and runtime the run
read it at, with its published value and ratio, the measured ratio with its 99 % interval, and the verdict word.

A figure is named in the store by its claim: `<scenario> · <published variant>`, its published table and row, as the
comparison of two runs names it (analysis/tools/compare_report.py)."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from analysis.compute.aggregate import with_ratios
from analysis.compute.cold_start import split_measures
from analysis.compute.load import RunData
from analysis.compute.replicates import summarize_cells
from analysis.compute.run_experiments import run_experiments
from analysis.compute.verdicts.verdicts import verdict_table
from analysis.render.writer import run_labs_dir
from analysis.store.database import StoreError
from analysis.store.run_entry import SqlValue, sql_value

#: Between a figure's scenario and its published variant in its claim.
CLAIM_SEPARATOR = " · "

#: The columns of `verdicts` after its run, experiment and claim: the report's verdict table's own
#: (analysis/compute/verdicts/verdict_row.py Verdict).
FROM_VERDICT = (
    "scenario",
    "published_variant",
    "benchmark",
    "reference",
    "metric",
    "isa_level",
    "runtime",
    "primary",
    "published_value",
    "published_ratio",
    "ratio_source",
    "measured_ratio",
    "measured_ratio_lower",
    "measured_ratio_upper",
    "pairs",
    "measured_value",
    "verdict",
    "bytes_verdict",
)
#: Every column of `verdicts`, in the order verdict_lines gives them.
VERDICT_COLUMNS = ("run_id", "experiment", "claim", *FROM_VERDICT)
#: What makes one line of `verdicts` (its primary key).
VERDICT_KEY = ("experiment", "claim", "benchmark", "reference", "metric", "isa_level", "runtime")


def claim_id(scenario: str, published_variant: str) -> str:
    """A figure's claim as the store names it: 'myclass · NewtonSoftJson_Camel'."""
    return f"{scenario}{CLAIM_SEPARATOR}{published_variant}"


@dataclass(frozen=True)
class JudgedRun:
    """A run's verdict table (Verdict's columns) and where the experiments it was judged against came from ('' when
    from the run's own copy: analysis/compute/run_experiments.py)."""

    verdicts: pd.DataFrame
    experiments_note: str


def judged_run(data: RunData) -> JudgedRun:
    """The run's verdicts, as its report's reproduction table has them (before the explanations the report borrows
    from other runs: the store's lines come from this folder alone)."""
    rows, _ = split_measures(data.rows)  # steady-state cells get ratios and verdicts; cold starts are rows only
    cells = with_ratios(summarize_cells(rows), rows)
    measured = set(cells["experiment"])
    found = run_experiments([data.directory], measured)
    experiments = [e for e in found.by_id.values() if e.id in measured]
    return JudgedRun(verdict_table(experiments, cells, rows, run_labs_dir(data.directory)), found.note)


def verdict_lines(run_id: str, verdicts: pd.DataFrame) -> list[tuple[SqlValue, ...]]:
    """One line of `verdicts` per row of the verdict table; a figure judged twice at one place is StoreError naming
    it (its experiment file names one figure twice)."""
    if verdicts.empty:
        return []
    table = verdicts.assign(
        run_id=run_id, claim=[claim_id(s, v) for s, v in zip(verdicts["scenario"], verdicts["published_variant"])]
    )
    twice = table[table.duplicated(list(VERDICT_KEY), keep=False)]
    if not twice.empty:
        first = twice.iloc[0]
        raise StoreError(
            f"run {run_id}: experiment {first['experiment']} judges the figure '{first['claim']}' "
            f"({first['metric']}, {first['isa_level']}, {first['runtime']}) more than once",
            "its experiment file names one figure twice (the same scenario and published_variant): give one of them "
            "its own published_variant, then import the run again",
        )
    return [tuple(sql_value(value) for value in line) for line in table[list(VERDICT_COLUMNS)].itertuples(index=False)]
