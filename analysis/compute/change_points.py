"""Where a figure's measured ratio moved across runs: change points judged on each run's 99 % interval, not on points.

A figure's history in one series (one host, runtime, ISA level, benchmark and reference, oldest run first) is a list
of readings, each a measured ratio with its 99 % interval. A reading's standard error on the log scale is its
interval's log width over twice the t quantile the interval was drawn with (harness/model/stats/stats.py
ratio_interval: Student's t over its pairs' log ratios; the normal 2.576 when the pairs are not known), its variance
inflated by ν / (ν − 2) for the error of that estimate. A step is looked for by binary segmentation: every place
between two runs is tried, each side pooled by inverse variance, and the place whose difference is largest in units
of its standard error is a change when that difference's interval excludes no change at a family-wise 99 %: its
quantile is the larger of the normal one with a Bonferroni correction for the places tried and the 99th percentile of
the same largest difference in 999 histories without a step simulated from the segment's own intervals (a reading's
error, its standard error estimated from a few processes, has heavier tails than the normal's; the simulation has
them too). Each side of a change is then searched again.

Runs of one host differ by more than their own intervals say when the host drifts (a kernel update, another tenant):
that excess is estimated on each tried segmentation by DerSimonian and Laird's method of moments (the spread of the
runs around their segment's pooled ratio beyond what their intervals allow) and added to every reading's variance, so
a history whose runs scatter is judged with wider intervals rather than cut at every wiggle; the difference's variance
is then scaled by the runs' scatter when that is larger still (Knapp and Hartung).

What a change says: "moved between run A and run B by x [lo, hi]", x the ratio of the pooled ratios after and before,
less one, and its interval at that family-wise level. analysis/compute/change_study.py measures how often it finds a
known step and how often it reports one where there is none.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from harness.model.defaults import CONFIDENCE_LEVEL
from harness.model.stats.stats import t_quantile

#: The two-sided normal quantile of the lab's intervals (99 %): a reading of unknown pairs is its log ± Z99 standard
#: errors.
Z99 = statistics.NormalDist().inv_cdf(0.5 + CONFIDENCE_LEVEL / 2)
#: A reading's standard error is itself estimated from its few pairs: its error over it is Student's t with pairs − 1
#: degrees of freedom, whose variance is ν / (ν − 2), so its variance is taken that much larger (at most this factor:
#: below 3 degrees of freedom the t's variance is unbounded).
MAX_INFLATION = 3.0
#: The family-wise error rate of one series' search: the chance of reporting a change in a history without one.
ALPHA = 0.01
#: How many histories without a step are simulated from a segment's own intervals to find its quantile, from a fixed
#: seed (the same history always gets the same answer).
NULL_HISTORIES = 999
NULL_SEED = 20261207


@dataclass(frozen=True)
class Reading:
    """One run's reading of a figure: its measured ratio and 99 % interval (both bounds above zero) from `pairs`
    paired processes (None when not known)."""

    run_id: str
    ratio: float
    lower: float
    upper: float
    pairs: int | None = None

    @property
    def log_ratio(self) -> float:
        return math.log(self.ratio)

    @property
    def freedom(self) -> int | None:
        """The degrees of freedom of its interval's t (pairs − 1), None when its pairs are not known."""
        return self.pairs - 1 if self.pairs is not None and self.pairs >= 2 else None

    @property
    def estimated_variance(self) -> float:
        """The log ratio's variance as its interval gives it (at least a tiny floor: a zero-width interval is not
        certainty)."""
        quantile = Z99 if self.freedom is None else t_quantile(self.freedom + 1, CONFIDENCE_LEVEL)
        se = (math.log(self.upper) - math.log(self.lower)) / (2 * quantile)
        return max(se * se, 1e-12)

    @property
    def variance(self) -> float:
        """The variance the search weighs it by: the estimated one, inflated for the error of that estimate."""
        return self.estimated_variance * inflation(self.freedom)


def inflation(freedom: int | None) -> float:
    """ν / (ν − 2), the variance of Student's t with ν degrees of freedom (at most MAX_INFLATION); 1 when ν is not
    known."""
    if freedom is None:
        return 1.0
    return min(MAX_INFLATION, freedom / (freedom - 2)) if freedom > 2 else MAX_INFLATION


@dataclass(frozen=True)
class ChangePoint:
    """A step between two consecutive runs of a series: the last run before it and the first after (`index`, its place
    among the series' usable readings), the pooled
    ratio after over the pooled ratio before less one (`change`, 0.05 = 5 % higher) with its interval at `level`."""

    before_run: str
    after_run: str
    index: int
    change: float
    lower: float
    upper: float
    level: float

    def sentence(self) -> str:
        """'moved between run A and run B by +5.1 % [+3.2 %, +7.0 %]'."""
        return (
            f"moved between run {self.before_run} and run {self.after_run} by {self.change:+.1%} "
            f"[{self.lower:+.1%}, {self.upper:+.1%}] ({self.level:.0%} family-wise interval)"
        )


def usable(readings: Sequence[Reading]) -> list[Reading]:
    """The readings a search can use: a positive, finite ratio inside a positive, finite interval."""
    return [
        r
        for r in readings
        if all(math.isfinite(v) and v > 0 for v in (r.ratio, r.lower, r.upper)) and r.lower <= r.ratio <= r.upper
    ]


def change_points(readings: Sequence[Reading], alpha: float = ALPHA) -> list[ChangePoint]:
    """The steps of one series (oldest reading first), in the order of the runs; none for fewer than two readings."""
    series = usable(readings)
    found: list[ChangePoint] = []
    _search(series, 0, len(series), alpha, found)
    return sorted(found, key=lambda c: c.index)


def _split_statistics(logs: np.ndarray, variances: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For histories of shape (P, n) (each row one ordering of a segment's readings): at each split 1..n-1, the
    standardized difference of the pooled log ratios after and before, the difference, and its variance, each (P, n-1).

    Each side is pooled by inverse variance, every reading's variance with the excess between runs added (DerSimonian
    and Laird's estimate for two segments, each with a mean of its own); the difference's variance is then Knapp and
    Hartung's: scaled up by the runs' weighted scatter around their side's mean when that exceeds its n − 2 degrees
    of freedom, never scaled down."""
    n = logs.shape[1]
    before = (np.arange(n)[None, :] < np.arange(1, n)[:, None])[None]  # (1, n-1, n): reading i before split k
    y, v = logs[:, None, :], variances[:, None, :]
    freedom = n - 2

    def sides(weights: np.ndarray) -> tuple[np.ndarray, ...]:
        """Each side's sum of weights and weighted mean, (P, n-1) each."""
        w_before, w_after = weights * before, weights * ~before
        total_before, total_after = w_before.sum(-1), w_after.sum(-1)
        return total_before, (w_before * y).sum(-1) / total_before, total_after, (w_after * y).sum(-1) / total_after

    w = np.broadcast_to(1 / v, (logs.shape[0], n - 1, n))
    total_b, mean_b, total_a, mean_a = sides(w)
    q = (w * (y - np.where(before, mean_b[..., None], mean_a[..., None])) ** 2).sum(-1)
    c = total_b - (w * w * before).sum(-1) / total_b + total_a - (w * w * ~before).sum(-1) / total_a
    excess = np.clip((q - freedom) / c, 0, None) if freedom > 0 else np.zeros_like(q)
    weights = 1 / (v + excess[..., None])
    total_b, mean_b, total_a, mean_a = sides(weights)
    variance = 1 / total_b + 1 / total_a
    if freedom > 0:
        scatter = (weights * (y - np.where(before, mean_b[..., None], mean_a[..., None])) ** 2).sum(-1)
        variance = variance * np.maximum(1.0, scatter / freedom)
    step = mean_a - mean_b
    return step / np.sqrt(variance), step, variance


def null_largest(segment: Sequence[Reading]) -> np.ndarray:
    """The largest standardized step of each of NULL_HISTORIES histories without a step, simulated from the segment's
    own readings: each reading's error normal with its estimated variance, and that variance estimated again from its
    pairs (a chi-square with its degrees of freedom), as the lab's intervals are. A reading's standardized error then
    has Student's heavier tails, which the normal quantile does not see."""
    rng = np.random.default_rng(NULL_SEED)
    truth = np.array([r.estimated_variance for r in segment])
    freedom = np.array([r.freedom or 0 for r in segment])
    shape = (NULL_HISTORIES, len(segment))
    logs = rng.standard_normal(shape) * np.sqrt(truth)
    estimated = np.where(freedom > 0, rng.chisquare(np.maximum(freedom, 1), shape) / np.maximum(freedom, 1), 1.0)
    variances = truth * estimated * np.array([inflation(r.freedom) for r in segment])
    return np.abs(_split_statistics(logs, variances)[0]).max(axis=1)


def _search(series: list[Reading], start: int, end: int, alpha: float, found: list[ChangePoint]) -> None:
    """The largest standardized step of series[start:end] is a change when it passes the Bonferroni normal quantile
    and the (1 − alpha) quantile of the largest step in NULL_HISTORIES simulated histories without a step
    (null_largest); then both sides are searched again."""
    places = end - start - 1
    if places < 1:
        return
    segment = series[start:end]
    logs = np.array([r.log_ratio for r in segment])
    variances = np.array([r.variance for r in segment])
    z, steps, spreads = (a[0] for a in _split_statistics(logs[None, :], variances[None, :]))
    best = int(np.argmax(np.abs(z)))
    normal = statistics.NormalDist().inv_cdf(1 - alpha / places / 2)
    simulated = float(np.quantile(np.append(null_largest(segment), abs(z[best])), 1 - alpha, method="higher"))
    quantile = max(normal, simulated)
    if abs(z[best]) <= quantile:
        return
    half = quantile * math.sqrt(spreads[best])
    index = start + best + 1
    step = float(steps[best])
    found.append(
        ChangePoint(
            series[index - 1].run_id,
            series[index].run_id,
            index,
            math.expm1(step),
            math.expm1(step - half),
            math.expm1(step + half),
            1 - alpha,
        )
    )
    _search(series, start, index, alpha, found)
    _search(series, index, end, alpha, found)
