"""The run's time budget: one wall-clock limit for a session, shared fairly across its units.

A profile may give a run a budget in minutes, counted from the start of `harness run` (image builds and probes
included). Before each unit (a group at one ISA level under the interleaved and duet designs; a whole level under the
sequential one), the scheduler gives it a share of the time left: what remains after the cold-start cells and
calibrations still to come, split over the units not yet run in proportion to the cost of their minimum rounds.
What a unit leaves unused passes to the units after it; what an early unit overspends, the later ones give back.

A unit starts a round only when its spend after that round stays within its share (to the nearest round), and it
always gets the floor rounds whatever the budget says, so a slow machine overruns the budget rather than measuring
too little to report. A group the budget stopped says so ('budget' state) with the rounds it got.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable, Sequence

from harness.estimate import process_seconds
from harness.profiles import BudgetSpec
from harness.records import COLD, JobSettings, ResultRow

#: Seconds of one calibration before an ISA level and at the end (two workloads on one CPU; 2.7 s measured here).
CALIBRATION_S = 3.0

#: Seconds per process assumed before the run has timed any, when the job leaves counts to BenchmarkDotNet.
UNKNOWN_PROCESS_S = 5.0


class RunBudget:
    """A session's deadline on a monotonic clock (tests pass a simulated one)."""

    def __init__(self, spec: BudgetSpec, started: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.spec = spec
        self.clock = clock
        self.deadline = started + 60 * spec.minutes

    def remaining_s(self) -> float:
        """Seconds until the deadline (negative once past it)."""
        return self.deadline - self.clock()


def typical_process_s(rows: Iterable[ResultRow], job: JobSettings) -> float:
    """Wall seconds of one steady-state process: the median of those timed so far, else the job's estimate."""
    durations = [r.duration_s for r in rows if r.measure != COLD and r.duration_s]
    if durations:
        return statistics.median(durations)
    estimate = process_seconds(job)
    return UNKNOWN_PROCESS_S if estimate is None else estimate


def unit_share(remaining_s: float, reserve_s: float, costs: Sequence[float]) -> float:
    """The first unit's share of the time left: what remains after the reserve, in proportion to its cost among the
    units still to run (`costs`, this unit's first). Never negative."""
    total = sum(costs)
    if not costs or total <= 0:
        return max(0.0, remaining_s - reserve_s)
    return max(0.0, remaining_s - reserve_s) * costs[0] / total


def round_fits(spent_s: float, round_cost_s: float, share_s: float) -> bool:
    """True when a unit that has spent `spent_s` of its share may start a round costing `round_cost_s`: the spend
    after it must stay within the share, give or take half a round (so a share of 5.6 rounds buys 6)."""
    return spent_s + round_cost_s <= share_s + round_cost_s / 2
