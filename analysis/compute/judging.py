"""The reproduction table's row (Verdict) and an Allocated figure's byte verdict. How one published ratio is judged
against its measured interval, and the verdict words, live in harness/model/judging.py: the harness judges claims
while it runs too."""

from __future__ import annotations

import math
from dataclasses import dataclass

from harness.model.judging import NOT_MEASURED, VOID

CANNOT_REPRODUCE = "cannot reproduce"
#: The verdict of an allocation row that has no ratio to judge (the table's baseline, or a reference without a published
#: allocation): its byte verdict is the comparison.
BYTES_ONLY = "bytes only"

#: Byte verdicts of a published Allocated figure (Verdict.bytes_verdict).
BYTES_EQUAL = "equal"
BYTES_WITHIN = "within tolerance"
BYTES_DIFFER = "differs"


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
