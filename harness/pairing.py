"""Pairing replicates of a benchmark with replicates of its reference, for ratio intervals.

A ratio's interval comes from per-replicate ratios, each taken between two processes measured as
close together in time as the design allowed: the same round of an interleaved block or sequential
sweep, or the two halves of one duet (run at the same time on two CPUs). Pairs are independent of
each other, so the Student-t interval on their log ratios (harness.stats.ratio_interval) is honest.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from harness.stats import CONFIDENCE_LEVEL, Interval, ratio_interval


@dataclass(frozen=True)
class Replicate:
    """One measured process of one benchmark (one results.jsonl row, reduced to what pairing needs);
    value_ns is the row's REPLICATE_STATISTIC."""

    benchmark: str
    round_index: int
    partner: str | None
    value_ns: float


def _by_round(replicates: Iterable[Replicate]) -> dict[int, float]:
    """Mean per round index (a duet baseline has one replicate per partner in each round)."""
    sums: dict[int, list[float]] = defaultdict(list)
    for r in replicates:
        sums[r.round_index].append(r.value_ns)
    return {k: sum(v) / len(v) for k, v in sums.items()}


def paired_ratios(variant: list[Replicate], reference: list[Replicate]) -> list[float]:
    """Per-pair ratios variant / reference, in round order.

    Duet replicates are paired with the reference process that ran beside them; otherwise
    replicates of the same round are paired (the reference's rounds averaged when it has several)."""
    if not variant or not reference:
        return []
    name, ref_name = variant[0].benchmark, reference[0].benchmark
    duet_ref = {r.round_index: r.value_ns for r in reference if r.partner == name}
    duet = sorted((r.round_index, r.value_ns) for r in variant if r.partner == ref_name)
    if duet:
        return [mean / duet_ref[k] for k, mean in duet if k in duet_ref]
    mine, theirs = _by_round(variant), _by_round(reference)
    return [mine[k] / theirs[k] for k in sorted(mine) if k in theirs]


def paired_ratio_interval(variant: list[Replicate], reference: list[Replicate], level: float = CONFIDENCE_LEVEL) -> Interval | None:
    """The ratio's geometric mean and interval over its pairs; None when no pair exists."""
    if variant and reference and variant[0].benchmark == reference[0].benchmark:
        n = len(variant)
        return Interval(1.0, 1.0, 1.0, n)  # a benchmark against itself: exactly 1
    ratios = paired_ratios(variant, reference)
    return ratio_interval(ratios, level) if ratios else None
