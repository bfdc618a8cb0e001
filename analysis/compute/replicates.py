"""Summarizing a cell's replicates (one results.jsonl row per process) into one row per cell.

The process is the unit of replication: the iterations of one process share its code layout,
tier-up history and heap, so they are not independent draws, and pooling them (n = all
iterations) gives intervals several times too narrow. A cell's mean is the mean of its processes'
means, and its 99% interval is Student-t over those means (n = processes). The old within-process
interval stays as a labelled diagnostic (`within_rel_ci99`): how steady each process was.
"""

from __future__ import annotations

import pandas as pd

from harness.model.defaults import REPLICATE_STATISTIC
from harness.model.folder.records import MEASURED, RowStatus, VerificationStatus
from harness.model.stats.interference import disturbance, interference_share
from harness.model.stats.stats import mean_interval

__all__ = ["replicate_statistics", "noise_statistics", "summarize_cells"]


def replicate_statistics(measured: pd.DataFrame) -> dict[str, float | int | None]:
    """time_ns: the mean over processes of each one's REPLICATE_STATISTIC, with its 99% CI and spread; mean_ns: the mean
    of the processes' BenchmarkDotNet means (for reference: what the write-ups printed); min/max/median over their own.
    """
    values = measured[REPLICATE_STATISTIC].astype(float)
    interval = mean_interval(values.tolist())
    center = interval.estimate
    spread = values.std(ddof=1) / center if len(measured) > 1 else None
    own = (measured["ci99_half_width_ns"] / measured["mean_ns"]).dropna()  # none for a single shot: no median taken
    within = own.median() if not own.empty else None
    return {
        "replicates": interval.n,
        "n": int(measured["n"].sum()),
        "time_ns": center,
        "mean_ns": float(measured["mean_ns"].mean()),
        "stddev_ns": None if spread is None else spread * center,
        "between_process_cv": spread,
        "median_ns": float(measured["median_ns"].median()),
        "min_ns": float(measured["min_ns"].min()),
        "max_ns": float(measured["max_ns"].max()),
        "ci99_half_width_ns": interval.half_width,
        "ci99_lower_ns": interval.lower,
        "ci99_upper_ns": interval.upper,
        "within_rel_ci99": None if within is None else float(within),
    }


def noise_statistics(measured: pd.DataFrame) -> dict[str, float | int | None]:
    """The worst interference any of the cell's processes saw, and how many processes were disturbed."""
    shares = [s for s in (interference_share(r) for r in measured.itertuples()) if s is not None]
    disturbed = [s for s in (disturbance(r) for r in measured.itertuples()) if s is not None]
    return {
        "interference_max": max(shares) if shares else None,
        # the worst of its measured processes judged disturbed (none in a run that replaces them; older runs kept them)
        "disturbed_max": max(disturbed) if disturbed else None,
        "steal_ms_total": measured["steal_ms"].sum(min_count=1) if "steal_ms" in measured else None,
        "involuntary_context_switches_max": measured["involuntary_context_switches"].max()
        if "involuntary_context_switches" in measured
        else None,
    }


def _summarize_cell(rows: pd.DataFrame) -> pd.Series:
    rows = rows.sort_values("round_index")
    measured = rows[rows["status"].isin(MEASURED)]
    first = (measured if not measured.empty else rows).iloc[0].copy()
    first["rounds_measured"] = len(measured)
    # a disturbed process a fresh one replaced is no missing round: its replacement stands for it
    replaced = rows["replaced"].notna() if "replaced" in rows else pd.Series(False, index=rows.index)
    first["replaced_processes"] = int(replaced.sum())
    problems = rows[~rows["status"].isin(MEASURED) & ~replaced]
    if measured.empty:
        first["status"] = RowStatus.SKIPPED if (rows["status"] == RowStatus.SKIPPED).all() else RowStatus.FAILED
        return first
    for key, value in {**replicate_statistics(measured), **noise_statistics(measured)}.items():
        first[key] = value
    unverified = measured[measured["verification_status"] == VerificationStatus.FAILED]
    if not unverified.empty:
        first["status"], first["verification_status"] = RowStatus.UNVERIFIED, VerificationStatus.FAILED
        first["verification_message"] = unverified.iloc[0]["verification_message"]
    first["allocated_bytes_per_op"] = measured["allocated_bytes_per_op"].mean()
    readings = measured["peak_rss_bytes"].dropna() if "peak_rss_bytes" in measured else pd.Series(dtype=float)
    if not readings.empty:  # each process's reading (a cold cell's median over its runs): their median
        first["peak_rss_bytes"] = readings.median()
    for column in ("gen0_collections", "gen1_collections", "gen2_collections", "total_operations", "duration_s"):
        first[column] = measured[column].sum()
    first["partner"] = None
    if not problems.empty:
        rounds = len(rows) - first["replaced_processes"]
        first["error"] = f"{len(problems)} of {rounds} rounds not measured: {problems.iloc[0]['error']}"
    return first


#: The columns a cell's summary adds to its first row (replicate_statistics, noise_statistics, _summarize_cell).
_SUMMARY_COLUMNS = (
    *("replicates", "n", "time_ns", "mean_ns", "stddev_ns", "between_process_cv", "median_ns", "min_ns", "max_ns"),
    *("ci99_half_width_ns", "ci99_lower_ns", "ci99_upper_ns", "within_rel_ci99"),
    *("interference_max", "disturbed_max", "steal_ms_total", "involuntary_context_switches_max"),
    *("rounds_measured", "replaced_processes", "partner"),
)


def summarize_cells(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per cell_id, in first-appearance order (none, with the columns a summary has, for no rows: a run of
    cold-start cells only has no steady-state cell)."""
    if rows.empty:
        return pd.DataFrame(columns=list(dict.fromkeys([*rows.columns, *_SUMMARY_COLUMNS])))
    order = list(dict.fromkeys(rows["cell_id"]))
    summarized = [_summarize_cell(group) for _, group in rows.groupby("cell_id", sort=False)]
    frame = pd.DataFrame(summarized).reset_index(drop=True)
    # every summary column, even where no cell measured one (a run whose every cell failed still gets its report)
    frame = frame.reindex(columns=list(dict.fromkeys([*frame.columns, *_SUMMARY_COLUMNS])))
    return frame.set_index("cell_id").loc[order].reset_index()
