"""Judging one published figure (verdicts.py applies it to every claim of a run): the verdict words, the Verdict row of
the reproduction table, a published ratio (printed, or derived from the published means of its table), the verdict of
a measured ratio and its 99% interval against it, and an Allocated figure's byte verdict."""

from __future__ import annotations

import math
from dataclasses import dataclass

from analysis.defaults import PARITY_BAND, TOLERANCE
from harness.config.experiments import Claim

REPRODUCED = "reproduced"
SAME_DIRECTION = "same direction only"
NOT_REPRODUCED = "not reproduced"
INCONCLUSIVE = "inconclusive"
VOID = "void: verification failed"
NOT_MEASURED = "not measured"
CANNOT_REPRODUCE = "cannot reproduce"
#: The verdict of an allocation row that has no ratio to judge (the table's baseline, or a reference without a published
#: allocation): its byte verdict is the comparison.
BYTES_ONLY = "bytes only"

#: Byte verdicts of a published Allocated figure (Verdict.bytes_verdict).
BYTES_EQUAL = "equal"
BYTES_WITHIN = "within tolerance"
BYTES_DIFFER = "differs"

#: metric name → (claim attribute with the published value, measured column). Time ratios come with an interval
#: from paired replicates; allocations are deterministic per operation, so their ratio is judged as a point.
METRICS = {
    "time": ("mean_ns", "time_ns"),
    "allocated": ("allocated_bytes", "allocated_bytes_per_op"),
}


@dataclass(frozen=True)
class Verdict:
    """One row of the reproduction table."""

    experiment: str
    scenario: str
    published_variant: str
    benchmark: str
    reference: str
    metric: str
    published_value: float | None
    published_ratio: float
    ratio_source: str
    published_hardware: str
    published_runtime: str
    isa_level: str
    runtime: str
    primary: bool
    measured_ratio: float | None
    measured_ratio_lower: float | None
    measured_ratio_upper: float | None
    pairs: int | None
    measured_runtime: str | None
    variant_verification: str | None
    baseline_verification: str | None
    verdict: str
    note: str
    measured_value: float | None = None  # allocated rows: the measured bytes per operation of the benchmark
    allocated_tolerance_bytes: int | None = (
        None  # allocated rows: how far from the published bytes counts as within tolerance
    )
    bytes_verdict: str | None = (
        None  # allocated rows: BYTES_EQUAL / BYTES_WITHIN / BYTES_DIFFER (or void / not measured)
    )


def direction(ratio: float, parity: float = PARITY_BAND) -> str:
    """'<1', '>1' or '≈1' (within the parity band)."""
    if ratio < 1 - parity:
        return "<1"
    if ratio > 1 + parity:
        return ">1"
    return "≈1"


def judge(
    published: float,
    measured: float | None,
    void: bool,
    lower: float | None = None,
    upper: float | None = None,
    interval: bool = True,
    tolerance: float = TOLERANCE,
) -> str:
    """The verdict for one published ratio against a measured ratio and its interval.

    With interval=True (time), [lower, upper] must lie inside [published × (1 ± tolerance)] to reproduce;
    wholly outside it is 'same direction only' or 'not reproduced'; across its edge, or with no interval
    (one replicate), 'inconclusive'. With interval=False (allocations) the point is judged alone."""
    if void:
        return VOID
    if measured is None or math.isnan(measured):
        return NOT_MEASURED
    if not interval:
        lower = upper = measured
    if lower is None or upper is None or math.isnan(lower) or math.isnan(upper):
        return INCONCLUSIVE
    low, high = published * (1 - tolerance), published * (1 + tolerance)
    if low <= lower and upper <= high:
        return REPRODUCED
    if lower <= high and upper >= low:
        return INCONCLUSIVE
    same = direction(lower) == direction(upper) == direction(published)
    return SAME_DIRECTION if same else NOT_REPRODUCED


def judge_bytes(published: int, measured: float | None, tolerance: int, void: bool) -> str:
    """The byte verdict of a published Allocated figure: the measured bytes per operation, rounded to whole bytes as
    BenchmarkDotNet prints them, equal to it, within `tolerance` bytes of it, or not."""
    if void:
        return VOID
    if measured is None or math.isnan(measured):
        return NOT_MEASURED
    difference = abs(round(measured) - published)
    if difference == 0:
        return BYTES_EQUAL
    return BYTES_WITHIN if difference <= tolerance else BYTES_DIFFER


def published_ratio(claim: Claim, claims: tuple[Claim, ...], metric: str) -> tuple[float, str] | None:
    """(ratio, source) for a claim and metric, or None when the write-up gives nothing to compare."""
    attribute = METRICS[metric][0]
    value = getattr(claim, attribute)
    if value is None:
        return None
    if metric == "time" and claim.ratio is not None:
        return claim.ratio, "published"
    reference = next(
        (
            c
            for c in claims
            if c.scenario == claim.scenario
            and c.benchmark == claim.reference
            and c.isa_level == claim.reference_isa_level
            and getattr(c, attribute) not in (None, 0)
        ),
        None,
    )
    if reference is None:
        return None
    return (
        value / getattr(reference, attribute),
        f"derived from published {'means' if metric == 'time' else 'allocations'}",
    )
