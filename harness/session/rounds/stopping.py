"""Adaptive stopping on a run's rows: whether a group of cells has enough replicates.

A group (one experiment's group at one ISA level) keeps getting rounds until every ratio in it,
each benchmark over the group's baseline, has a relative 99% CI half-width at or below the
profile's target; or until its round or time cap, when it is 'imprecise'. Ratios whose sides
failed verification are void and do not hold a group back. The rule itself, which ratios count and when a group
stops, is harness/model/stats/group_precision.py's, which the report and the stopping replay read too; this module gives
it the run's rows.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from harness.config.experiment.profiles import Stopping
from harness.model.defaults import REPLICATE_STATISTIC
from harness.model.folder.records import MEASURED, ResultRow, VerificationStatus
from harness.model.groups import RUNNING, elapsed_s
from harness.model.stats.group_precision import Ratio, group_state, precision_of
from harness.model.stats.pairing import Replicate, paired_ratio_interval, replicate_of
from harness.model.stats.stats import format_rel_ci
from harness.model.stats.warmup_check import usable


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

    def describe(self) -> str:
        """'precise after 12 round(s) (widest ratio CI ±1.8%, 95 s)' and the like."""
        width = "—" if self.worst_rel_ci is None else format_rel_ci(self.worst_rel_ci)
        return f"{self.state} after {self.rounds} round(s) (widest ratio CI {width}, {self.elapsed_s:.0f} s)"


def measured_replicates(rows: Iterable[ResultRow]) -> dict[str, list[Replicate]]:
    """A group's replicates by benchmark: its measured processes, except those whose warm-up was cut short
    (harness/model/stats/warmup_check.py), which count as if they had failed."""
    by_benchmark: dict[str, list[Replicate]] = defaultdict(list)
    for row in usable(list(rows)):
        value = getattr(row, REPLICATE_STATISTIC)
        if row.status in MEASURED and value is not None:
            by_benchmark[row.benchmark].append(replicate_of(row, value))
    return by_benchmark


def group_ratios(rows: Iterable[ResultRow]) -> list[Ratio]:
    """Each measured benchmark's ratio to its baseline, from a group's rows, with its interval's relative half-width
    where the ratio counts toward the group's precision (harness/model/stats/group_precision.py)."""
    rows = list(rows)
    replicates = measured_replicates(rows)
    measured = [r for r in usable(rows) if r.status in MEASURED]
    baselines = {r.benchmark: r.baseline for r in measured}
    failed = {r.benchmark for r in measured if r.verification_status == VerificationStatus.FAILED}
    ratios = []
    for benchmark, baseline in baselines.items():
        ratio = Ratio(benchmark, baseline, bool({benchmark, baseline} & failed), None, baseline in baselines)
        if ratio.counts:
            interval = paired_ratio_interval(replicates.get(benchmark, []), replicates.get(baseline, []))
            ratio = dataclasses.replace(
                ratio, rel_half_width=None if interval is None else interval.relative_half_width
            )
        ratios.append(ratio)
    return ratios


def rows_precision(rows: Iterable[ResultRow]) -> tuple[float | None, int]:
    """(widest relative 99% CI half-width over the group's comparable ratios, how many there are);
    the width is None when one of them has fewer than two pairs yet, or there is none."""
    precision = precision_of(group_ratios(rows))
    return precision.widest, precision.comparable


def group_status(rows: list[ResultRow], rounds_done: int, stopping: Stopping) -> GroupStatus:
    """Applies the profile's stopping rule (harness/model/stats/group_precision.py) to a group's rows after
    `rounds_done` rounds."""
    precision = precision_of(group_ratios(rows))
    spent = elapsed_s(rows)
    state = group_state(stopping, rounds_done, spent, precision, len({r.benchmark for r in rows}))
    return GroupStatus(rounds_done, spent, precision.widest, state)
