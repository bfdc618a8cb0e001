"""One published figure judged at one place: the claim's benchmark at an ISA level and on a runtime against its
reference at its own (by default the same), for one metric. The two sides' measured rows are found, the measured ratio
and its 99% interval read from the paired replicates (or the two rows' means for a metric judged on the point), the
measured bytes and the byte verdict of an Allocated figure taken, and the verdict words given
(harness/model/judging.py); a figure left 'not measured' says why: which side failed, or which side no process
measured. verdicts.py judges every claim of a run with these.
"""

from __future__ import annotations

import math
from dataclasses import replace

import pandas as pd

from analysis.compute.aggregate import RatioBook
from analysis.compute.verdicts.verdict_row import Verdict
from analysis.formatting.tables import failure_reason
from harness.model.experiment import Claim, Experiment
from harness.model.folder.records import BUILD_FAILED, DEFAULT_RUNTIME, UNAVAILABLE, VerificationStatus
from harness.model.judging import BYTES_ONLY, INTERVAL_METRICS, METRICS, NOT_MEASURED, judge, judge_bytes
from harness.model.published_stability import stability_of


def with_failure(
    verdict: Verdict,
    failed: pd.DataFrame,
    level: str,
    reference_level: str | None = None,
    runtime: str = DEFAULT_RUNTIME,
    reference_runtime: str | None = None,
    measured: pd.DataFrame | None = None,
) -> Verdict:
    """A claim whose benchmark or baseline failed at its level and runtime says why, instead of 'not measured'; one
    with no failure says which side has no measured process there ('not measured: …')."""
    if verdict.verdict != NOT_MEASURED:
        return verdict
    sides = (
        (verdict.benchmark, level, runtime),
        (verdict.reference, reference_level or level, reference_runtime or runtime),
    )
    for benchmark, at, on in sides:
        hit = failed[
            (failed["benchmark"] == benchmark) & (failed["isa_requested"] == at) & (failed["runtime_requested"] == on)
        ]
        if not hit.empty:
            who = "" if benchmark == verdict.benchmark else f"baseline {benchmark} "
            error = str(hit.iloc[0]["error"])
            return replace(verdict, verdict=f"{who}{_failure_words(error)}")
    if measured is None:
        return verdict
    for benchmark, at, on in sides:
        hit = measured[
            (measured["benchmark"] == benchmark)
            & (measured["isa_requested"] == at)
            & (measured["runtime_requested"] == on)
        ]
        if hit.empty:
            who = "" if benchmark == verdict.benchmark else "its baseline "
            return replace(
                verdict, verdict=f"{NOT_MEASURED}: this run measured {who}{benchmark} at {at} on {on} in no process"
            )
    return replace(verdict, verdict=f"{NOT_MEASURED}: no process pairs both sides")


def _failure_words(error: str) -> str:
    """A failed side's verdict: its reason when it is unavailable here, void when its build failed (no process ran:
    nothing was measured wrong), else failed with the reason."""
    if error.startswith(UNAVAILABLE):
        return failure_reason(error)
    if error.startswith(BUILD_FAILED):
        return f"void: {failure_reason(error)}"
    return f"failed: {failure_reason(error)}"


def claim_verdict(
    experiment: Experiment,
    claim: Claim,
    metric: str,
    published: tuple[float, str],
    measured: pd.DataFrame,
    book: RatioBook,
    level: str,
    primary: bool,
    note: str,
    reference_level: str | None = None,
    runtime: str = DEFAULT_RUNTIME,
    reference_runtime: str | None = None,
) -> Verdict:
    """The claim's benchmark at `level` on `runtime` against its reference at `reference_level` on
    `reference_runtime` (default: the same level and runtime)."""
    hardware = experiment.hardware[claim.hardware]
    reference_level = reference_level or level
    reference_runtime = reference_runtime or runtime
    row = _row_at(measured, claim.benchmark, level, runtime)
    ref = _row_at(measured, claim.reference, reference_level, reference_runtime)
    bytes_only = metric == "allocated" and math.isnan(published[0])
    coordinates = (level, reference_level, runtime, reference_runtime)
    ratio, lower, upper, pairs = _measured_ratio(book, experiment, claim, metric, bytes_only, row, ref, coordinates)
    measured_bytes = _measured_bytes(book, experiment, claim, metric, row, level, runtime)
    tolerance = experiment.allocation_tolerance(claim) if metric == "allocated" else None
    stability = stability_of(claim, experiment.claims) if metric == "time" else None
    return Verdict(
        experiment=experiment.id,
        scenario=claim.scenario,
        published_variant=claim.published_variant,
        benchmark=claim.benchmark,
        reference=claim.reference,
        metric=metric,
        published_value=getattr(claim, METRICS[metric][0]),
        published_ratio=round(published[0], 4),
        ratio_source=published[1],
        published_hardware=hardware.description,
        published_runtime=hardware.runtime,
        isa_level=level if reference_level == level else f"{level}/{reference_level}",
        runtime=runtime if reference_runtime == runtime else f"{runtime}/{reference_runtime}",
        primary=primary,
        measured_ratio=ratio,
        measured_ratio_lower=lower,
        measured_ratio_upper=upper,
        pairs=pairs,
        measured_runtime=None if row is None else f"{row['runtime']} {row['runtime_version']}",
        variant_verification=None if row is None else row["verification_status"],
        baseline_verification=None if ref is None else ref["verification_status"],
        verdict=_verdict_words(metric, published[0], ratio, lower, upper, row, ref, bytes_only),
        note="; ".join(n for n in (claim.note, note) if n),
        measured_value=measured_bytes,
        allocated_tolerance_bytes=tolerance,
        published_stability=stability.text() if stability else "",
        published_instability=", ".join(stability.reasons) if stability else "",
        published_ratio_error=stability.ratio_error_share if stability else None,
        bytes_verdict=_bytes_verdict(claim, metric, measured_bytes, tolerance, row),
    )


def _row_at(measured: pd.DataFrame, benchmark: str, isa_level: str, on: str) -> pd.Series | None:
    """The measured row of `benchmark` at `isa_level` on runtime `on`, or None when no process measured it there."""
    found = measured[
        (measured["benchmark"] == benchmark)
        & (measured["isa_requested"] == isa_level)
        & (measured["runtime_requested"] == on)
    ]
    return None if found.empty else found.iloc[0]


def _measured_ratio(
    book: RatioBook,
    experiment: Experiment,
    claim: Claim,
    metric: str,
    bytes_only: bool,
    row: pd.Series | None,
    ref: pd.Series | None,
    coordinates: tuple[str, str, str, str],
) -> tuple[float | None, float | None, float | None, int | None]:
    """The measured ratio, its interval's lower and upper ends and its pairs (None each when not measured): from the
    paired replicates for a metric judged on an interval, else the two rows' means (`coordinates`: the level, the
    reference's level, the runtime and the reference's runtime)."""
    ratio = lower = upper = pairs = None
    if row is not None and ref is not None:
        column = METRICS[metric][1]
        if metric in INTERVAL_METRICS:
            interval = book.interval(experiment.id, claim.benchmark, claim.reference, *coordinates, metric)
            if interval is not None:
                ratio, lower, upper, pairs = interval.estimate, interval.lower, interval.upper, interval.n
        elif not bytes_only and not pd.isna(row[column]) and not pd.isna(ref[column]) and ref[column] != 0:
            ratio = float(row[column] / ref[column])
    return ratio, lower, upper, pairs


def _measured_bytes(
    book: RatioBook,
    experiment: Experiment,
    claim: Claim,
    metric: str,
    row: pd.Series | None,
    level: str,
    runtime: str,
) -> float | None:
    """The benchmark's own figure in bytes: its memory increase or its allocated bytes per operation (None for time)."""
    column = METRICS[metric][1]
    if metric == "memory":  # the benchmark's own mean increase over its processes, in bytes
        return None if row is None else book.mean(experiment.id, claim.benchmark, level, runtime, metric)
    return None if metric != "allocated" or row is None or pd.isna(row[column]) else float(row[column])


def _verdict_words(
    metric: str,
    published_ratio: float,
    ratio: float | None,
    lower: float | None,
    upper: float | None,
    row: pd.Series | None,
    ref: pd.Series | None,
    bytes_only: bool,
) -> str:
    """The ratio verdict: the measured interval against the published ratio's band, void when either side failed
    verification; a figure judged in bytes alone says so (or that it was not measured)."""
    void = any(r is not None and r["verification_status"] == VerificationStatus.FAILED for r in (row, ref))
    if bytes_only:
        return BYTES_ONLY if row is not None else NOT_MEASURED
    return judge(published_ratio, ratio, void, lower, upper, interval=metric in INTERVAL_METRICS)


def _bytes_verdict(
    claim: Claim, metric: str, measured_bytes: float | None, tolerance: int | None, row: pd.Series | None
) -> str | None:
    """The byte verdict of an Allocated figure (void when the variant failed verification); None for other metrics."""
    if metric != "allocated" or claim.allocated_bytes is None or tolerance is None:
        return None  # an Allocated figure always has its published bytes and a tolerance (the experiment's)
    return judge_bytes(
        claim.allocated_bytes,
        measured_bytes,
        tolerance,
        row is not None and row["verification_status"] == VerificationStatus.FAILED,
    )
