"""Confidence intervals: Student-t for means, and for ratios on the log scale.

The unit of replication is the process (one round of a cell): iterations inside one process
share that process's code layout, tier-up history and heap, so they are not independent draws.
Intervals are therefore computed from per-process values, with n = number of processes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from scipy import stats as _scipy_stats

from harness.model.defaults import CONFIDENCE_LEVEL


def t_quantile(n: int, level: float = CONFIDENCE_LEVEL) -> float:
    """Two-sided Student-t quantile for a mean of n values (n - 1 degrees of freedom)."""
    return float(_scipy_stats.t.ppf(0.5 + level / 2, n - 1))


def ci_half_width(n: int, standard_error: float, level: float = CONFIDENCE_LEVEL) -> float | None:
    """Student-t half-width of the `level` confidence interval of a mean; None when n < 2."""
    if n < 2 or not math.isfinite(standard_error):
        return None
    return t_quantile(n, level) * standard_error


@dataclass(frozen=True)
class Interval:
    """A point estimate with its confidence interval (None bounds: fewer than two replicates)."""

    estimate: float
    lower: float | None
    upper: float | None
    n: int

    @property
    def half_width(self) -> float | None:
        """Half the interval's width (for asymmetric log-scale intervals: (upper - lower) / 2)."""
        return None if self.lower is None or self.upper is None else (self.upper - self.lower) / 2

    @property
    def relative_half_width(self) -> float | None:
        """half_width / estimate: the precision figure the lab's targets are stated in."""
        half = self.half_width
        return None if half is None else half / self.estimate


def mean_interval(values: Sequence[float], level: float = CONFIDENCE_LEVEL) -> Interval:
    """Mean of independent replicate values with a Student-t interval."""
    n = len(values)
    mean = math.fsum(values) / n
    if n < 2:
        return Interval(mean, None, None, n)
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    half = t_quantile(n, level) * sd / math.sqrt(n)
    return Interval(mean, mean - half, mean + half, n)


def ratio_interval(ratios: Sequence[float], level: float = CONFIDENCE_LEVEL) -> Interval:
    """Geometric mean of paired per-replicate ratios, with a Student-t interval on their logarithms.

    Timing ratios are multiplicative: a log-scale interval stays positive, is symmetric for a/b
    and b/a, and its t quantile keeps the coverage honest at the small replicate counts a run
    can afford (a bootstrap over 3–20 replicates undercovers)."""
    logs = [math.log(r) for r in ratios]
    log_interval = mean_interval(logs, level)
    estimate = math.exp(log_interval.estimate)
    if log_interval.lower is None or log_interval.upper is None:
        return Interval(estimate, None, None, len(logs))
    return Interval(estimate, math.exp(log_interval.lower), math.exp(log_interval.upper), len(logs))


def replicates_for(relative_half_width: float, cv: float, level: float = CONFIDENCE_LEVEL, cap: int = 10_000) -> int:
    """Replicates needed for a relative half-width, given the replicate-to-replicate coefficient of variation (`cap`
    when even that many fall short). The half-width t(n)·cv/√n falls as n grows, so n is found by bisection: the
    budget's forecasts ask this for every open claim before every round."""

    def reaches(n: int) -> bool:
        return t_quantile(n, level) * cv / math.sqrt(n) <= relative_half_width

    if cap <= 2 or reaches(2):
        return 2
    if not reaches(cap):
        return cap
    low, high = 2, cap  # short of the target at `low`, within it at `high`
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if reaches(middle) else (middle, high)
    return high


#: A relative half-width at or above this is not printed as a number: with two processes the t quantile is 63.7, and a
#: ratio's interval can come out as ±8,776,679,146% — a rendering of a division by nearly nothing, not information.
WIDEST_SHOWN = 1.0


def format_rel_ci(rel_half: float) -> str:
    """0.018 → '±1.8%'; 1.0 or more → '±>100%' (the interval says nothing yet: too few processes)."""
    return "±>100%" if rel_half >= WIDEST_SHOWN else f"±{100 * rel_half:.1f}%"
