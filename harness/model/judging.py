"""Judging one published ratio against its measurement: the tolerance band, the verdict words, a claim's published ratio
(printed, or derived from the published means of its table) and the verdict of a measured ratio and its 99% interval.

The harness reads it while it runs (which groups still have an undecided claim: harness/session/rounds/open_claims.py)
and the analysis writes the reproduction table with it (analysis/compute/verdicts/verdicts.py), so both judge alike.
"""

from __future__ import annotations

import math

from harness.model.experiment import Claim, reference_claim

#: A measured ratio within this relative distance of the published ratio reproduces it
#: (ratios, not absolute times, are compared: the hardware and runtime differ).
TOLERANCE = 0.15

#: Ratios within this distance of 1.0 count as parity when judging direction.
PARITY_BAND = 0.05

REPRODUCED = "reproduced"
SAME_DIRECTION = "same direction only"
NOT_REPRODUCED = "not reproduced"
INCONCLUSIVE = "inconclusive"
VOID = "void: verification failed"
NOT_MEASURED = "not measured"
#: A published figure the lab cannot measure (the experiment file says why).
CANNOT_REPRODUCE = "cannot reproduce"
#: The verdict of an allocation row that has no ratio to judge (the table's baseline, or a reference without a published
#: allocation): its byte verdict is the comparison.
BYTES_ONLY = "bytes only"

#: Byte verdicts of a published Allocated figure (analysis/compute/verdicts/verdict_row.py Verdict.bytes_verdict).
BYTES_EQUAL = "equal"
BYTES_WITHIN = "within tolerance"
BYTES_DIFFER = "differs"

#: metric name → (claim attribute with the published value, measured column). Time ratios come with an interval
#: from paired replicates; allocations are deterministic per operation, so their ratio is judged as a point.
METRICS = {
    "time": ("mean_ns", "time_ns"),
    "allocated": ("allocated_bytes", "allocated_bytes_per_op"),
    "memory": ("memory_increase_mib", "rss_increase_bytes"),
}

#: Metrics whose measured ratio pairs the processes of each round (an interval over processes); the others are points.
INTERVAL_METRICS = ("time", "memory")

#: How a derived published ratio says where it came from, per metric.
_DERIVED_FROM = {"time": "means", "allocated": "allocations", "memory": "memory increases"}


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


def published_ratio(claim: Claim, claims: tuple[Claim, ...], metric: str) -> tuple[float, str] | None:
    """(ratio, source) for a claim and metric, or None when the write-up gives nothing to compare."""
    if metric == "time" and claim.ratio is not None:
        return claim.ratio, "published"  # with or without the mean beside it: a ratio-only claim is judged too
    attribute = METRICS[metric][0]
    value = getattr(claim, attribute)
    if value is None:
        return None
    reference = reference_claim(claim, claims, attribute)
    if reference is None:
        return None
    return (
        value / getattr(reference, attribute),
        f"derived from published {_DERIVED_FROM[metric]}",
    )


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
