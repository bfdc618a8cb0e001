"""How many processes a published claim needs before its verdict is decided, at the noise its processes showed so far.

A time claim is inconclusive while its ratio's 99% interval straddles an edge of the tolerance band around the published
ratio (harness/model/judging.py). On the log scale that interval is centre ± t(n)·s/√n over n paired processes
(harness/model/stats/stats.py: ratio_interval), so it is decided once its half-width is below the distance d from its
centre to the nearest band edge (inside the band: 'reproduced'; outside: the direction verdicts). With the spread s seen
so far, the claim needs the smallest n' with t(n')·s/√n' ≤ d (stats.replicates_for). The forecast assumes the centre and
the spread stay where they are; it is re-read after every round (budget priority 'expected-decisions',
harness/model/stats/allocation.py), so a centre that moves moves the forecast. A centre on an edge needs more than any
run.
"""

from __future__ import annotations

import math

from harness.model.judging import TOLERANCE
from harness.model.stats.stats import replicates_for, t_quantile

#: No forecast beyond this many processes: such a claim is undecidable at this host's noise.
CAP = 10_000


def processes_to_decide(
    published: float, lower: float | None, upper: float | None, n: int, tolerance: float = TOLERANCE
) -> float:
    """The processes (in all, n included) at which the claim's interval would be decided; n when it already is,
    math.inf when no interval exists yet (fewer than two processes) or it would take more than CAP."""
    if lower is None or upper is None or n < 2 or not (0 < lower <= upper) or published <= 0:
        return math.inf
    low, high = math.log(published * (1 - tolerance)), math.log(published * (1 + tolerance))
    lo, hi = math.log(lower), math.log(upper)
    if (low <= lo and hi <= high) or hi < low or lo > high:
        return float(n)  # wholly inside or wholly outside the band: decided
    centre, half = (lo + hi) / 2, (hi - lo) / 2
    distance = min(abs(centre - low), abs(centre - high))
    if distance <= 0:
        return math.inf
    spread = half * math.sqrt(n) / t_quantile(n)
    needed = replicates_for(distance, spread, cap=CAP)
    return math.inf if needed >= CAP else float(max(needed, n + 1))


def decisions_per_second(extra_rounds: list[float], round_s: float, switch_s: float = 0.0) -> float:
    """The best rate at which a unit's rounds decide its open claims: over k = 1, 2, …, the k cheapest claims decided
    after the rounds the k-th needs (at least one), per second of those rounds and of `switch_s` once (what its first
    round costs more when another unit's process is the one warmed for it); 0 when none can be decided."""
    best = 0.0
    for k, rounds in enumerate(sorted(extra_rounds), start=1):
        if math.isfinite(rounds):
            best = max(best, k / (max(rounds, 1.0) * max(round_s, 1e-9) + max(switch_s, 0.0)))
    return best
