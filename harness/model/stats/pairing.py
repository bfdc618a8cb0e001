"""Pairing replicates of a benchmark with replicates of its reference, for ratio intervals.

A ratio's interval comes from per-replicate ratios, each taken between two processes measured as
close together in time as the design allowed: the same round of an interleaved block or sequential
sweep, or the two halves of one duet (run at the same time on two CPUs). In the paired design both
sides ran in one process, alternating in bursts: that process's ratio is the median of its per-round
burst ratios (robust to the bursts a noisy host slows). Pairs are independent of each other (one per
process, or per pair of processes), so the Student-t interval on their log ratios
(harness.stats.ratio_interval) is honest.

Two sides that cannot share a process (runtimes, ISA levels) are paired by round, across processes, and every
difference in machine speed between the two processes lands in the ratio. Where both processes also timed the native
scan anchor (job setting native_anchors; the same machine code on every runtime) from one library, each side is first
divided by the anchor inside its own process (the median of its per-round burst / anchor ratios): the ratio of ratios,
in which the processes' machine speeds cancel (docs/method.md "Claims across runtimes").
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from harness.model.stats.stats import CONFIDENCE_LEVEL, Interval, ratio_interval

#: The designs (harness/planning/designs.py) whose processes measure several cells in alternating bursts (the lab's
#: `paired` verb).
BURST_DESIGNS = ("paired", "paired-shared", "paired-pipelined")
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
    # paired design with native anchors: the reading anchor's time per call in each round of that process, and the
    # sha256 of the library that ran it (a time replicate only)
    anchor: tuple[float, ...] = ()
    anchor_library: str | None = None


def burst_ratio(variant: Replicate, reference: Replicate) -> float:
    """One paired process's ratio: the median of its per-round burst ratios variant / reference."""
    return statistics.median(v / r for v, r in zip(variant.bursts, reference.bursts))


#: The native anchor ratios across processes are read through (docs/method.md: chosen by the A/A across two builds).
READING_ANCHOR = "scan"


def anchored_value(replicate: Replicate) -> float:
    """A replicate's time over the reading anchor's inside its process: the median of its per-round ratios."""
    return statistics.median(b / a for b, a in zip(replicate.bursts, replicate.anchor))


def _anchored(replicates: Iterable[Replicate]) -> bool:
    return all(r.anchor and len(r.anchor) == len(r.bursts) for r in replicates)


def process_of(row) -> str | None:
    """The id of the paired process a result row came from (its group and round), or None for a process of its own."""
    bursts = getattr(row, "burst_ns", None)
    if not isinstance(bursts, (list, tuple)) or not bursts:  # None, or NaN in a pandas frame
        return None
    return f"{row.isa_requested}/{row.experiment}/{row.group}/{row.runtime_requested}#{int(row.round_index)}"


def replicate_of(row, value_ns: float, timed: bool = True) -> Replicate:
    """A result row (dataclass or pandas tuple) reduced to what pairing needs; `timed`: value_ns is its time (only a
    time is read through the native anchor)."""
    partner = row.partner if isinstance(row.partner, str) else None
    bursts = tuple(row.burst_ns) if process_of(row) else ()
    anchors = getattr(row, "native_anchor_ns", None)
    library = getattr(row, "native_anchors_sha256", None)
    anchor = tuple(anchors.get(READING_ANCHOR) or ()) if timed and bursts and isinstance(anchors, dict) else ()
    return Replicate(
        row.benchmark,
        int(row.round_index),
        partner,
        float(value_ns),
        process_of(row),
        bursts,
        anchor,
        library if anchor and isinstance(library, str) else None,
    )


def _by_round(replicates: Iterable[Replicate], anchored: bool = False) -> dict[int, float]:
    """Mean per round index (a duet baseline has one replicate per partner in each round); `anchored`: of each one's
    time over the anchor in its process."""
    sums: dict[int, list[float]] = defaultdict(list)
    for r in replicates:
        sums[r.round_index].append(anchored_value(r) if anchored else r.value_ns)
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
    libraries = {r.anchor_library for r in (*variant, *reference)}
    anchored = _anchored(variant) and _anchored(reference) and len(libraries) == 1 and None not in libraries
    mine, theirs = _by_round(variant, anchored), _by_round(reference, anchored)
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
