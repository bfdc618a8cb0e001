"""Ratios to each group's baseline, at the same ISA level, with propagated 99% intervals."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.defaults import ISA_ORDER
from analysis.rounds import MEASURED


def isa_rank(level: str) -> int:
    """Display position of an ISA level."""
    return ISA_ORDER.index(level) if level in ISA_ORDER else len(ISA_ORDER)


def ratio_with_ci(mean_a, half_a, mean_b, half_b):
    """a / b and its 99% half-width by first-order propagation for two independent means
    (works on scalars and on pandas/numpy arrays alike)."""
    ratio = mean_a / mean_b
    return ratio, ratio * np.sqrt((half_a / mean_a) ** 2 + (half_b / mean_b) ** 2)


def with_ratios(rows: pd.DataFrame) -> pd.DataFrame:
    """Adds baseline_* columns, ratio (mean / baseline mean), ratio_ci99_half_width,
    allocated_ratio, rel_ci99 (half-width / mean) and comparison_void (either side unverified)."""
    df = rows.copy()
    base = df[["experiment", "benchmark", "isa_requested", "mean_ns", "ci99_half_width_ns",
               "allocated_bytes_per_op", "status", "verification_status"]].rename(columns={
        "benchmark": "baseline", "mean_ns": "baseline_mean_ns", "ci99_half_width_ns": "baseline_ci99_half_width_ns",
        "allocated_bytes_per_op": "baseline_allocated_bytes_per_op", "status": "baseline_status",
        "verification_status": "baseline_verification_status"})
    df = df.merge(base, on=["experiment", "baseline", "isa_requested"], how="left")
    measured = df["status"].isin(MEASURED) & df["baseline_status"].isin(MEASURED)
    ratio, half = ratio_with_ci(df["mean_ns"], df["ci99_half_width_ns"], df["baseline_mean_ns"], df["baseline_ci99_half_width_ns"])
    df["ratio"] = np.where(measured, ratio, np.nan)
    df["ratio_ci99_half_width"] = np.where(measured, half, np.nan)
    df["allocated_ratio"] = np.where(measured, df["allocated_bytes_per_op"] / df["baseline_allocated_bytes_per_op"], np.nan)
    df["rel_ci99"] = df["ci99_half_width_ns"] / df["mean_ns"]
    df["comparison_void"] = (df["verification_status"] == "failed") | (df["baseline_verification_status"] == "failed")
    df["isa_rank"] = df["isa_requested"].map(isa_rank)
    return df


def median_relative_ci(df: pd.DataFrame) -> float | None:
    """Median over measured cells of the 99% CI half-width relative to the mean."""
    values = df.loc[df["status"].isin(MEASURED), "rel_ci99"].dropna()
    return None if values.empty else float(values.median())
