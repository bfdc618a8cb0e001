"""Pooling a cell's rounds (one results.jsonl row each) into one row per cell.

Rounds of a cell run minutes apart, interleaved with the other cells of their ISA level. Pooling
keeps the between-round spread: the pooled variance adds the rounds' own variances and the spread
of their means, so a host whose speed drifts gets a wider interval rather than a biased mean.
"""

from __future__ import annotations

import math

import pandas as pd

from harness.stats import ci_half_width

MEASURED = ("ok", "unverified")


def pooled_statistics(rounds: pd.DataFrame) -> dict[str, float | int | None]:
    """n, mean, stddev and 99% CI of the union of the rounds' iterations, from each round's n/mean/stddev."""
    n = rounds["n"].astype(int)
    total = int(n.sum())
    mean = float((n * rounds["mean_ns"]).sum() / total)
    within = ((n - 1) * rounds["stddev_ns"].fillna(0.0) ** 2).sum()
    between = (n * (rounds["mean_ns"] - mean) ** 2).sum()
    stddev = math.sqrt((within + between) / (total - 1)) if total > 1 else None
    half = None if stddev is None else ci_half_width(total, stddev / math.sqrt(total))
    return {
        "n": total, "mean_ns": mean, "stddev_ns": stddev,
        # The pooled median is not recoverable from per-round summaries; the median of the round medians stands in.
        "median_ns": float(rounds["median_ns"].median()),
        "min_ns": float(rounds["min_ns"].min()), "max_ns": float(rounds["max_ns"].max()),
        "ci99_half_width_ns": half,
        "ci99_lower_ns": None if half is None else mean - half, "ci99_upper_ns": None if half is None else mean + half,
    }


def _pool_cell(rounds: pd.DataFrame) -> pd.Series:
    rounds = rounds.sort_values("round_index")
    measured = rounds[rounds["status"].isin(MEASURED)]
    first = (measured if not measured.empty else rounds).iloc[0].copy()
    first["rounds_measured"] = len(measured)
    problems = rounds[~rounds["status"].isin(MEASURED)]
    if measured.empty:
        first["status"] = "skipped" if (rounds["status"] == "skipped").all() else "failed"
        return first
    for key, value in pooled_statistics(measured).items():
        first[key] = value
    unverified = measured[measured["verification_status"] == "failed"]
    if not unverified.empty:
        first["status"], first["verification_status"] = "unverified", "failed"
        first["verification_message"] = unverified.iloc[0]["verification_message"]
    first["allocated_bytes_per_op"] = measured["allocated_bytes_per_op"].mean()
    for column in ("gen0_collections", "gen1_collections", "gen2_collections", "total_operations", "duration_s"):
        first[column] = measured[column].sum()
    if not problems.empty:
        first["error"] = f"{len(problems)} of {len(rounds)} rounds not measured: {problems.iloc[0]['error']}"
    return first


def pool_rounds(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per cell_id, in first-appearance order."""
    order = list(dict.fromkeys(rows["cell_id"]))
    pooled = [_pool_cell(group) for _, group in rows.groupby("cell_id", sort=False)]
    frame = pd.DataFrame(pooled).reset_index(drop=True)
    return frame.set_index("cell_id").loc[order].reset_index()
