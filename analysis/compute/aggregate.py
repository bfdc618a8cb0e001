"""Ratios to each group's baseline at the same ISA level, with intervals from paired replicates.

Each ratio is the geometric mean of per-pair ratios (a benchmark's process over the baseline's
process of the same round, or of the same duet), with a Student-t interval on their logarithms
(harness/model/stats/stats.py); the pairs, not the iterations, are the independent observations.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from harness.config.isa import level_order
from harness.model.defaults import REPLICATE_STATISTIC
from harness.model.folder.records import DEFAULT_RUNTIME, MEASURED, VerificationStatus
from harness.model.stats.pairing import Replicate, paired_ratio_interval, paired_ratios, replicate_of
from harness.model.stats.stats import Interval, ratio_interval


def isa_rank(level: str) -> int:
    """Display position of an ISA level: isa_levels.toml's order (an unknown name after every known one)."""
    order = level_order()
    return order.index(level) if level in order else len(order)


#: The per-process memory figure single-shot cells give: the peak growth of the resident set during the timed calls.
RSS_INCREASE = "rss_increase_bytes"


def with_rss_increase(rows: pd.DataFrame) -> pd.DataFrame:
    """A copy of the rows with RSS_INCREASE (peak − before) where the peak is that of the timed calls alone (the
    kernel's mark was reset just before them); NaN elsewhere (a peak of the whole process would count the input's
    loading). The analysis's own frames only: never written back into a result row."""
    rows = rows.copy()
    if rows.empty or "rss_before_bytes" not in rows or "peak_rss_of" not in rows:
        rows[RSS_INCREASE] = float("nan")
        return rows
    timed = rows["peak_rss_of"] == "timed-calls"
    increase = rows["peak_rss_bytes"].astype(float) - rows["rss_before_bytes"].astype(float)
    rows[RSS_INCREASE] = increase.where(timed)
    return rows


#: What each metric pairs per process: the time statistic, or the memory increase of a single-shot process.
BOOK_STATISTICS = {"time": REPLICATE_STATISTIC, "memory": RSS_INCREASE}


class RatioBook:
    """Every measured replicate of a run, indexed for pairing (experiment, benchmark, ISA level, runtime), per metric
    (BOOK_STATISTICS): a process without the metric's figure is not a replicate of it."""

    def __init__(self, rows: pd.DataFrame) -> None:
        self._replicates: dict[str, dict[tuple[str, str, str, str], list[Replicate]]] = {m: {} for m in BOOK_STATISTICS}
        measured = with_rss_increase(rows[rows["status"].isin(MEASURED)])
        for r in measured.itertuples():
            key = (r.experiment, r.benchmark, r.isa_requested, r.runtime_requested)
            for metric, column in BOOK_STATISTICS.items():
                value = getattr(r, column, None)
                if value is not None and not pd.isna(value) and value > 0:
                    self._replicates[metric].setdefault(key, []).append(replicate_of(r, value, metric == "time"))

    def replicates(
        self, experiment: str, benchmark: str, level: str, runtime: str = DEFAULT_RUNTIME, metric: str = "time"
    ) -> list[Replicate]:
        """The measured processes of one cell."""
        return self._replicates[metric].get((experiment, benchmark, level, runtime), [])

    def mean(self, experiment: str, benchmark: str, level: str, runtime: str, metric: str) -> float | None:
        """The mean of one cell's per-process figures of a metric (None without any)."""
        values = [r.value_ns for r in self.replicates(experiment, benchmark, level, runtime, metric)]
        return sum(values) / len(values) if values else None

    def interval(
        self,
        experiment: str,
        benchmark: str,
        reference: str,
        level: str,
        reference_level: str | None = None,
        runtime: str = DEFAULT_RUNTIME,
        reference_runtime: str | None = None,
        metric: str = "time",
    ) -> Interval | None:
        """benchmark / reference at one level and runtime (or the reference at `reference_level` and on
        `reference_runtime`), None when either has no measured replicate. Across two levels or runtimes the processes of
        the same round index are paired; the two sides ran in different groups (and processes), so those pairs share no
        process and the interval is correspondingly wider."""
        mine = self.replicates(experiment, benchmark, level, runtime, metric)
        reference_level = reference_level or level
        reference_runtime = reference_runtime or runtime
        if reference_level == level and reference_runtime == runtime:
            return paired_ratio_interval(mine, self.replicates(experiment, reference, level, runtime, metric))
        ratios = paired_ratios(mine, self.replicates(experiment, reference, reference_level, reference_runtime, metric))
        return ratio_interval(ratios) if ratios else None


def with_ratios(cells: pd.DataFrame, rows: pd.DataFrame) -> pd.DataFrame:
    """Adds baseline_* columns, ratio with ratio_ci99_lower/upper and ratio_rel_ci99 (from paired replicates),
    ratio_pairs, allocated_ratio, rel_ci99 (cell half-width / mean) and comparison_void (either side unverified)."""
    df = cells.copy()
    base = df[
        [
            "experiment",
            "benchmark",
            "isa_requested",
            "runtime_requested",
            "time_ns",
            "allocated_bytes_per_op",
            "status",
            "verification_status",
        ]
    ].rename(
        columns={
            "benchmark": "baseline",
            "time_ns": "baseline_time_ns",
            "allocated_bytes_per_op": "baseline_allocated_bytes_per_op",
            "status": "baseline_status",
            "verification_status": "baseline_verification_status",
        }
    )
    df = df.merge(base, on=["experiment", "baseline", "isa_requested", "runtime_requested"], how="left")
    book = RatioBook(rows)
    intervals = [
        book.interval(r.experiment, r.benchmark, r.baseline, r.isa_requested, runtime=r.runtime_requested)
        if r.status in MEASURED and r.baseline_status in MEASURED
        else None
        for r in df.itertuples()
    ]
    df["ratio"] = [np.nan if i is None else i.estimate for i in intervals]
    df["ratio_ci99_lower"] = [np.nan if i is None or i.lower is None else i.lower for i in intervals]
    df["ratio_ci99_upper"] = [np.nan if i is None or i.upper is None else i.upper for i in intervals]
    df["ratio_rel_ci99"] = [
        np.nan if i is None or i.relative_half_width is None else i.relative_half_width for i in intervals
    ]
    df["ratio_pairs"] = [0 if i is None else i.n for i in intervals]
    measured = df["status"].isin(MEASURED) & df["baseline_status"].isin(MEASURED)
    df["allocated_ratio"] = np.where(
        measured, df["allocated_bytes_per_op"] / df["baseline_allocated_bytes_per_op"], np.nan
    )
    df["rel_ci99"] = df["ci99_half_width_ns"] / df["time_ns"]
    df["comparison_void"] = (df["verification_status"] == VerificationStatus.FAILED) | (
        df["baseline_verification_status"] == VerificationStatus.FAILED
    )
    df["isa_rank"] = df["isa_requested"].map(isa_rank)
    add_settings(df)
    return df


def add_settings(df: pd.DataFrame) -> None:
    """Adds `setting` (what a table column or a chart bar stands for: the ISA level, prefixed by the runtime when the
    run measured more than one) and `setting_rank` (runtimes in run order, then ISA levels in display order)."""
    runtimes = list(dict.fromkeys(df["runtime_requested"]))
    several = len([r for r in runtimes if r != DEFAULT_RUNTIME]) > 1
    df["setting"] = [
        f"{r} {level}" if several else level for r, level in zip(df["runtime_requested"], df["isa_requested"])
    ]
    df["setting_rank"] = [runtimes.index(r) * 100 + rank for r, rank in zip(df["runtime_requested"], df["isa_rank"])]


def median_relative_ci(df: pd.DataFrame, column: str = "rel_ci99") -> float | None:
    """Median over measured cells of a relative 99% CI half-width column (cells: rel_ci99; ratios: ratio_rel_ci99)."""
    rows = df["status"].isin(MEASURED)
    if column == "ratio_rel_ci99":  # a baseline's ratio to itself and void comparisons carry no precision
        rows &= (df["benchmark"] != df["baseline"]) & ~df["comparison_void"]
    values = df.loc[rows, column].dropna()
    return None if values.empty else float(values.median())
