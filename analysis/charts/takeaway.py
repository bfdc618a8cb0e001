"""The finding in a chart's title: one line generated from the chart's own numbers and intervals.

A takeaway never claims more than its interval allows: "A is 2.3× faster than B [2.0, 2.6]" only when the whole 99%
interval lies on one side of 1; "no difference within ±3%" only when the interval straddles 1 and is that narrow;
otherwise it says the difference is undecided and gives the interval.
"""

from __future__ import annotations

import math

#: An interval straddling 1 that is narrower than this (relative half-width) is stated as "no difference within ±x%".
NO_DIFFERENCE_WITHIN = 0.05


def _factor(speedup: float) -> str:
    """1.08 → '8%', 2.31 → '2.3×', 12.4 → '12×' (a factor below 1.5 reads better as a percentage)."""
    return f"{(speedup - 1) * 100:.0f}%" if speedup < 1.5 else f"{speedup:.1f}×" if speedup < 10 else f"{speedup:.0f}×"


def _interval(low: float, high: float) -> str:
    if max(low, high) < 1.5:
        return f"[{(low - 1) * 100:.0f}%, {(high - 1) * 100:.0f}%]"
    return f"[{low:.1f}, {high:.1f}]" if high < 10 else f"[{low:.0f}, {high:.0f}]"


def time_ratio_takeaway(name: str, baseline: str, ratio: float, lower: float | None, upper: float | None) -> str:
    """What a time ratio (name's time over baseline's, with its 99% interval) supports saying."""
    if lower is None or upper is None or any(math.isnan(v) for v in (lower, upper)) or lower <= 0:
        return f"{name} takes {ratio:.2f}× the time of {baseline} (no interval: too few processes)"
    if upper < 1:
        return f"{name} is {_factor(1 / ratio)} faster than {baseline} {_interval(1 / upper, 1 / lower)}"
    if lower > 1:
        return f"{name} is {_factor(ratio)} slower than {baseline} {_interval(lower, upper)}"
    half = max(upper / ratio - 1, 1 - lower / ratio)
    if half <= NO_DIFFERENCE_WITHIN:
        return f"{name} and {baseline}: no difference within ±{math.ceil(half * 100)}%"
    return f"{name} vs {baseline}: undecided, {ratio:.2f}× the time [{lower:.2f}, {upper:.2f}]"


def fastest_takeaway(
    entries: list[tuple[str, float, float | None, float | None]], unit: str, higher_is_faster: bool
) -> str:
    """For (name, value, lower, upper) entries: the fastest when its interval is clear of the runner-up's, else a
    tie."""
    usable = [e for e in entries if e[1] is not None and not math.isnan(e[1])]
    if not usable:
        return "nothing measured"
    ranked = sorted(usable, key=lambda e: -e[1] if higher_is_faster else e[1])
    best = ranked[0]
    value = f"{best[1]:,.0f} {unit}"
    if len(ranked) == 1:
        return f"{best[0]}: {value}"
    second = ranked[1]
    best_edge = best[2] if higher_is_faster else best[3]
    second_edge = second[3] if higher_is_faster else second[2]
    clear = (
        best_edge is not None
        and second_edge is not None
        and not math.isnan(best_edge)
        and not math.isnan(second_edge)
        and (best_edge > second_edge if higher_is_faster else best_edge < second_edge)
    )
    if clear:
        return f"{best[0]} is fastest: {value}, clear of {second[0]}"
    return f"{best[0]} and {second[0]} are fastest (~{value}; their intervals overlap)"
