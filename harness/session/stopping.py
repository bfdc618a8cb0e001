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

from harness.config.defaults import REPLICATE_STATISTIC
from harness.model.pairing import Replicate, paired_ratio_interval, replicate_of
from harness.config.profiles import Stopping
from harness.model.records import MEASURED, ResultRow, VerificationStatus
from harness.model.groups import DONE, IMPRECISE, PRECISE, RUNNING, elapsed_s
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


def group_precision(rows: Iterable[ResultRow]) -> tuple[float | None, int]:
    """(widest relative 99% CI half-width over the group's comparable ratios, how many there are);
    the width is None when one of them has fewer than two pairs yet, or there is none. Processes whose warm-up was cut
    short (harness/model/warmup_check.py) do not count: the group runs on as if they had failed."""
    by_benchmark: dict[str, list[ResultRow]] = defaultdict(list)
    for row in usable(list(rows)):
        if row.status in MEASURED:
            by_benchmark[row.benchmark].append(row)
    worst: float | None = None
    comparable = 0
    for benchmark, mine in by_benchmark.items():
        baseline = mine[0].baseline
        if benchmark == baseline or baseline not in by_benchmark:
            continue
        if any(r.verification_status == VerificationStatus.FAILED for r in mine + by_benchmark[baseline]):
            continue  # void comparison: no precision is worth buying for it
        comparable += 1
        interval = paired_ratio_interval(_replicates(mine), _replicates(by_benchmark[baseline]))
        width = None if interval is None else interval.relative_half_width
        if width is None:
            return None, comparable
        worst = width if worst is None else max(worst, width)
    return worst, comparable


def _replicates(rows: list[ResultRow]) -> list[Replicate]:
    return [
        replicate_of(r, getattr(r, REPLICATE_STATISTIC)) for r in rows if getattr(r, REPLICATE_STATISTIC) is not None
    ]


def group_status(rows: list[ResultRow], rounds_done: int, stopping: Stopping) -> GroupStatus:
    """Applies the profile's stopping rule to a group's rows after `rounds_done` rounds."""
    worst, comparable = group_precision(rows)
    spent = elapsed_s(rows)
    if rounds_done < stopping.min_rounds:
        return GroupStatus(rounds_done, spent, worst, RUNNING)
    if not stopping.adaptive:
        return GroupStatus(rounds_done, spent, worst, DONE)
    if worst is not None and worst <= stopping.target_rel_ci:
        return GroupStatus(rounds_done, spent, worst, PRECISE)
    if comparable == 0:
        return GroupStatus(rounds_done, spent, worst, DONE)  # nothing to compare in this group
    cap = stopping.time_cap_s(len({r.benchmark for r in rows}))
    capped = rounds_done >= stopping.max_rounds or (cap is not None and spent >= cap)
    return GroupStatus(rounds_done, spent, worst, IMPRECISE if capped else RUNNING)
