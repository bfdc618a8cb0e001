"""Pairing replicates of a benchmark with replicates of its reference, for ratio intervals.

A ratio's interval comes from per-replicate ratios, each taken between two processes measured as
close together in time as the design allowed: the same round of an interleaved block or sequential
sweep, or the two halves of one duet (run at the same time on two CPUs). In the paired design both
sides ran in one process, alternating in bursts: that process's ratio is the median of its per-round
burst ratios (robust to the bursts a noisy host slows). Pairs are independent of each other (one per
process, or per pair of processes), so the Student-t interval on their log ratios
(harness.stats.ratio_interval) is honest.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from harness.model.stats import CONFIDENCE_LEVEL, Interval, ratio_interval

#: The designs (harness/planning/designs.py) whose processes measure several cells in alternating bursts (the lab's
#: `paired` verb).
BURST_DESIGNS = ("paired", "paired-shared")
#: Of those, the designs whose processes may hold several groups (their units are not single groups).
SHARED_PROCESS_DESIGNS = ("paired-shared",)


@dataclass(frozen=True)
class Replicate:
    """One measured process of one benchmark (one results.jsonl row, reduced to what pairing needs);
    value_ns is the row's REPLICATE_STATISTIC."""

    benchmark: str
    round_index: int
    partner: str | None
    value_ns: float
    process: str | None = None  # paired design: the process (group and round) that measured it beside other cells
    bursts: tuple[float, ...] = ()  # paired design: its time per call in each round of bursts of that process


def burst_ratio(variant: Replicate, reference: Replicate) -> float:
    """One paired process's ratio: the median of its per-round burst ratios variant / reference."""
    return statistics.median(v / r for v, r in zip(variant.bursts, reference.bursts))


def process_of(row) -> str | None:
    """The id of the paired process a result row came from (its group and round), or None for a process of its own."""
    bursts = getattr(row, "burst_ns", None)
    if not isinstance(bursts, (list, tuple)) or not bursts:  # None, or NaN in a pandas frame
        return None
    return f"{row.isa_requested}/{row.experiment}/{row.group}/{row.runtime_requested}#{int(row.round_index)}"


def replicate_of(row, value_ns: float) -> Replicate:
    """A result row (dataclass or pandas tuple) reduced to what pairing needs."""
    partner = row.partner if isinstance(row.partner, str) else None
    bursts = tuple(row.burst_ns) if process_of(row) else ()
    return Replicate(row.benchmark, int(row.round_index), partner, float(value_ns), process_of(row), bursts)


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
    in_process = {r.process: r for r in reference if r.process}
    shared = [
        (v, in_process[v.process])
        for v in sorted(variant, key=lambda r: r.round_index)
        if v.process in in_process and len(v.bursts) == len(in_process[v.process].bursts)
    ]
    if shared:
        return [burst_ratio(v, r) for v, r in shared]
    duet_ref = {r.round_index: r.value_ns for r in reference if r.partner == name}
    duet = sorted((r.round_index, r.value_ns) for r in variant if r.partner == ref_name)
    if duet:
        return [mean / duet_ref[k] for k, mean in duet if k in duet_ref]
    mine, theirs = _by_round(variant), _by_round(reference)
    return [mine[k] / theirs[k] for k in sorted(mine) if k in theirs]


def paired_ratio_interval(
    variant: list[Replicate], reference: list[Replicate], level: float = CONFIDENCE_LEVEL
) -> Interval | None:
    """The ratio's geometric mean and interval over its pairs; None when no pair exists."""
    if variant and reference and variant[0].benchmark == reference[0].benchmark:
        n = len(variant)
        return Interval(1.0, 1.0, 1.0, n)  # a benchmark against itself: exactly 1
    ratios = paired_ratios(variant, reference)
    return ratio_interval(ratios, level) if ratios else None
