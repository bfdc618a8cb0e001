"""The run's time budget: one wall-clock limit for a session, shared fairly across its units.

A profile may give a run a budget in minutes, counted from the end of its preparation (image and lab builds, the lab
probes and ISA checks, which a first run on an empty image store spends minutes on and a second reuses: the run says how
long they took when the budget starts). The budget is shared in rounds, the thing a group's precision depends on, not in
seconds: before each round of a unit (a group at one ISA level under the interleaved and duet designs; a whole level
under the sequential one), the scheduler asks how many rounds every group still to run could get if all of them were
scaled alike, with this unit's rounds costed at what its own processes took so far and every later unit's at the job's
estimated process time. The time left is what remains after the cold-start cells and calibrations still to come. The
unit starts another round while that number, rounded to the nearest round, allows it, and always gets the floor rounds
whatever the budget says, so a slow machine overruns the budget rather than measuring too little to report. Time a unit
leaves unused, or overspends, is seen by the next decision, so early groups cannot eat the hour and late ones do not
starve. A group the budget stopped says so ('budget' state) with the rounds it got.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable

from harness.config.experiment.profiles import BudgetSpec
from harness.model.cells import JobSettings
from harness.model.folder.records import COLD, ResultRow
from harness.planning.estimate import UNKNOWN_PROCESS_S, process_seconds

#: Seconds of one calibration before an ISA level and at the end (two workloads on one CPU; 2.7 s measured here).
CALIBRATION_S = 3.0


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
    """Wall seconds of one steady-state process of a cell not run yet: the job's estimate
    (harness/planning/estimate.py), which
    does not depend on which cells happened to run first; the median of the processes run so far only when the job
    leaves its counts to BenchmarkDotNet and there is no estimate. (The median after the first units of a default run
    was 3.9 s, the big payloads of write-up 003 running first; over the whole run it was 2.8 s, the estimate's 2.81 s.)
    """
    estimate = process_seconds(job)
    if estimate is not None:
        return estimate
    durations = [r.duration_s for r in rows if r.measure != COLD and r.duration_s]
    return statistics.median(durations) if durations else UNKNOWN_PROCESS_S


def affordable_rounds(remaining_s: float, rounds_done: int, round_s: float, later_round_s: float) -> float:
    """Rounds R this unit can have when every later unit gets as many: this unit's R − rounds_done more rounds at
    `round_s` each, plus R rounds of every later unit (`later_round_s`: one round of each, summed), fill `remaining_s`.
    """
    if round_s + later_round_s <= 0:
        return float("inf")
    return max(0.0, remaining_s + rounds_done * round_s) / (round_s + later_round_s)


def round_fits(rounds_done: int, affordable: float) -> bool:
    """True when one more round stays within the affordable rounds, to the nearest round (5.6 affordable buys a
    sixth)."""
    return rounds_done + 1 <= affordable + 0.5
