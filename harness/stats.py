"""Confidence intervals for per-operation means."""

from __future__ import annotations

import math

from scipy import stats as _scipy_stats

from harness.defaults import CONFIDENCE_LEVEL


def ci_half_width(n: int, standard_error: float, level: float = CONFIDENCE_LEVEL) -> float | None:
    """Student-t half-width of the `level` confidence interval of a mean; None when n < 2."""
    if n < 2 or not math.isfinite(standard_error):
        return None
    return float(_scipy_stats.t.ppf(0.5 + level / 2, n - 1)) * standard_error
