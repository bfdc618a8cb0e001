"""Adaptive stopping: whether a group of cells has enough replicates.

A group (one experiment's group at one ISA level) keeps getting rounds until every ratio in it,
each benchmark over the group's baseline, has a relative 99% CI half-width at or below the
profile's target; or until its round or time cap, when it is 'imprecise'. Ratios whose sides
failed verification are void and do not hold a group back.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from harness.config.profiles import Stopping
from harness.model.defaults import REPLICATE_STATISTIC
from harness.model.groups import DONE, IMPRECISE, PRECISE, RUNNING, elapsed_s
from harness.model.pairing import Replicate, paired_ratio_interval, replicate_of
from harness.model.records import MEASURED, ResultRow, VerificationStatus
from harness.model.warmup_check import usable


@dataclass(frozen=True)
class GroupStatus:
    """Where one group stands after its latest round."""

    rounds: int
    elapsed_s: float
    worst_rel_ci: float | None
    state: str

    @property
    def finished(self) -> bool:
        """True when the group gets no more rounds."""
        return self.state != RUNNING


def measured_replicates(rows: Iterable[ResultRow]) -> dict[str, list[Replicate]]:
    """A group's replicates by benchmark: its measured processes, except those whose warm-up was cut short
    (harness/model/warmup_check.py), which count as if they had failed."""
    by_benchmark: dict[str, list[Replicate]] = defaultdict(list)
    for row in usable(list(rows)):
        value = getattr(row, REPLICATE_STATISTIC)
        if row.status in MEASURED and value is not None:
            by_benchmark[row.benchmark].append(replicate_of(row, value))
    return by_benchmark


def group_precision(rows: Iterable[ResultRow]) -> tuple[float | None, int]:
    """(widest relative 99% CI half-width over the group's comparable ratios, how many there are);
    the width is None when one of them has fewer than two pairs yet, or there is none."""
    rows = list(rows)
    replicates = measured_replicates(rows)
    measured = [r for r in usable(rows) if r.status in MEASURED]
    baselines = {r.benchmark: r.baseline for r in measured}
    failed = {r.benchmark for r in measured if r.verification_status == VerificationStatus.FAILED}
    worst: float | None = None
    comparable = 0
    for benchmark, baseline in baselines.items():
        if benchmark == baseline or baseline not in baselines:
            continue
        if {benchmark, baseline} & failed:
            continue  # void comparison: no precision is worth buying for it
        comparable += 1
        interval = paired_ratio_interval(replicates.get(benchmark, []), replicates.get(baseline, []))
        width = None if interval is None else interval.relative_half_width
        if width is None:
            return None, comparable
        worst = width if worst is None else max(worst, width)
    return worst, comparable


def group_status(rows: list[ResultRow], rounds_done: int, stopping: Stopping) -> GroupStatus:
    """Applies the profile's stopping rule to a group's rows after `rounds_done` rounds."""
    worst, comparable = group_precision(rows)
    spent = elapsed_s(rows)
    if rounds_done < stopping.min_rounds:
        return GroupStatus(rounds_done, spent, worst, RUNNING)
    if not stopping.adaptive:
        return GroupStatus(rounds_done, spent, worst, DONE)
    assert stopping.target_rel_ci is not None  # an adaptive rule has a target (Stopping.adaptive)
    if worst is not None and worst <= stopping.target_rel_ci:
        return GroupStatus(rounds_done, spent, worst, PRECISE)
    if comparable == 0:
        return GroupStatus(rounds_done, spent, worst, DONE)  # nothing to compare in this group
    cap = stopping.time_cap_s(len({r.benchmark for r in rows}))
    capped = rounds_done >= stopping.max_rounds or (cap is not None and spent >= cap)
    return GroupStatus(rounds_done, spent, worst, IMPRECISE if capped else RUNNING)
