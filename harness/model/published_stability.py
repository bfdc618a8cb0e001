"""The published table's own evidence about a figure: how stable the publisher's own measurement was, from the columns
BenchmarkDotNet printed beside the mean (Error: half the 99.9 % confidence interval of the mean; StdDev of the
iterations; Min and Median). A figure whose own table says it was unstable is weaker evidence than one whose table
says it was steady, and a disagreement with it is explained in part by that: the report shows the table's evidence
beside each figure and names it in the figure's "Explained by"."""

from __future__ import annotations

import math
from dataclasses import dataclass

from harness.model.experiment import Claim, reference_claim

#: A row whose StdDev exceeds this share of its mean was unsteady in the publisher's own run.
UNSTABLE_STDDEV = 0.05
#: A row whose fastest iteration is this far below its median ran in two modes (or a fast outlier): its mean mixes them.
UNSTABLE_MIN_GAP = 0.10


@dataclass(frozen=True)
class RowSpread:
    """One published row's own statistics, as its table printed them (nanoseconds; None: not printed)."""

    variant: str
    mean_ns: float
    error_ns: float | None = None
    stddev_ns: float | None = None
    min_ns: float | None = None
    median_ns: float | None = None

    @property
    def stddev_share(self) -> float | None:
        return None if self.stddev_ns is None else self.stddev_ns / self.mean_ns

    @property
    def error_share(self) -> float | None:
        return None if self.error_ns is None else self.error_ns / self.mean_ns

    @property
    def min_gap(self) -> float | None:
        """How far the fastest iteration is below the median, as a share of the median."""
        if self.min_ns is None or self.median_ns is None or self.median_ns <= 0:
            return None
        return max(0.0, 1 - self.min_ns / self.median_ns)

    def unstable(self) -> list[str]:
        """What in this row's own statistics says the publisher's measurement was unstable ([] when nothing does)."""
        found = []
        if (share := self.stddev_share) is not None and share > UNSTABLE_STDDEV:
            found.append(f"{self.variant}'s StdDev is {share:.0%} of its mean")
        if (gap := self.min_gap) is not None and gap > UNSTABLE_MIN_GAP:
            found.append(f"{self.variant}'s minimum is {gap:.0%} below its median")
        return found


@dataclass(frozen=True)
class PublishedStability:
    """A published ratio's own evidence: its row's statistics and its reference's, and the ratio's own relative
    half-width from both rows' Error (99.9 %; None when either row's Error was not printed)."""

    rows: tuple[RowSpread, ...]
    ratio_error_share: float | None

    @property
    def reasons(self) -> list[str]:
        return [reason for row in self.rows for reason in row.unstable()]

    @property
    def unstable(self) -> bool:
        return bool(self.reasons)

    def text(self) -> str:
        """'±0.4 % (its table's Error, 99.9 %)', then what says it was unstable, if anything."""
        parts = []
        if self.ratio_error_share is not None:
            parts.append(f"±{self.ratio_error_share:.1%} (its table's Error, 99.9 %)")
        if self.unstable:
            parts.append("unstable in its own table: " + ", ".join(self.reasons))
        elif any(r.stddev_ns is not None for r in self.rows):
            parts.append("steady in its own table")
        return "; ".join(parts)


def row_spread(claim: Claim) -> RowSpread | None:
    """The claim's own row statistics; None when the write-up printed no mean or none of them."""
    printed = (claim.published_error_ns, claim.published_stddev_ns, claim.published_min_ns, claim.published_median_ns)
    if claim.mean_ns is None or all(value is None for value in printed):
        return None
    return RowSpread(claim.published_variant, claim.mean_ns, *printed)


def stability_of(claim: Claim, claims: tuple[Claim, ...]) -> PublishedStability | None:
    """A time figure's own evidence: its row's and, for a ratio, its reference row's (the same scenario's); None when
    its table printed none."""
    own = row_spread(claim)
    if own is None:
        return None
    reference = reference_claim(claim, claims, "mean_ns") if claim.reference else None
    theirs = row_spread(reference) if reference is not None and reference is not claim else None
    rows = (own,) if theirs is None else (own, theirs)
    shares = [row.error_share for row in rows]
    ratio_error = (
        math.sqrt(sum(share**2 for share in shares if share is not None))
        if theirs is not None and None not in shares
        else None
    )
    return PublishedStability(rows, ratio_error)
