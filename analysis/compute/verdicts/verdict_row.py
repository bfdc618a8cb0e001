"""The reproduction table's row (Verdict): one published figure beside its measurement and verdict. The verdict words
and how a figure is judged live in harness/model/judging.py (the harness judges claims while it runs too)."""

from __future__ import annotations

from dataclasses import dataclass


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
    # time rows: the published table's own evidence (harness/model/published_stability.py): its Error-derived interval
    # of the ratio and what in the rows' StdDev, Min and Median says the publisher's measurement was unstable ("" when
    # nothing does)
    published_stability: str = ""
    published_instability: str = ""
    published_ratio_error: float | None = None  # the published ratio's own relative half-width (both rows' Error)
    bytes_verdict: str | None = (
        None  # allocated rows: BYTES_EQUAL / BYTES_WITHIN / BYTES_DIFFER (or void / not measured)
    )
