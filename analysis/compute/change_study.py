"""How well the change-point search does on histories whose steps and noise are known: its detection rate and its
false alarms, measured on synthetic histories simulated the way the lab reads a figure.

Each synthetic run measures a figure with `pairs` paired processes: their log ratios scatter around the run's true
log ratio by `process_spread` (the process is the replicate), and the run's reading is their geometric mean with its
99 % Student-t interval, drawn by the lab's own ratio_interval. The run's true log ratio is the figure's (before or
after a step at a random place) plus the run's own drift (`drift`: a host that changes between runs beyond what one
run's processes show). A history of `runs` such readings is searched by change_points:
- with a step: **detected** when a change is reported within one run of the true place; a change anywhere else is a
  false alarm of that history;
- without a step: any change is a **false alarm**.
`python3 -m analysis change-study` prints the table for the default grid (docs/store.md quotes it).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from analysis.compute.change_points import Reading, change_points
from harness.model.stats.stats import ratio_interval


@dataclass(frozen=True)
class Scenario:
    """One kind of synthetic history: its length, each run's processes and their spread, the drift between runs and
    the step (0.05: the figure 5 % higher from a random run on; 0: none)."""

    runs: int = 10
    pairs: int = 6
    process_spread: float = 0.012
    drift: float = 0.0
    step: float = 0.0


@dataclass(frozen=True)
class StudyResult:
    """What the search found on `histories` histories of one scenario, and the median reading's interval half-width
    (relative) for scale."""

    scenario: Scenario
    histories: int
    detected: int
    false_alarms: int
    median_half_width: float

    @property
    def detection_rate(self) -> float | None:
        return self.detected / self.histories if self.scenario.step else None

    @property
    def false_alarm_rate(self) -> float:
        return self.false_alarms / self.histories


def simulate(scenario: Scenario, rng: random.Random) -> tuple[list[Reading], int | None]:
    """One synthetic history and the index of the first run after its step (None without one)."""
    at = rng.randrange(1, scenario.runs) if scenario.step else None
    readings = []
    for i in range(scenario.runs):
        truth = math.log1p(scenario.step) if at is not None and i >= at else 0.0
        centre = truth + rng.gauss(0.0, scenario.drift)
        ratios = [math.exp(rng.gauss(centre, scenario.process_spread)) for _ in range(scenario.pairs)]
        interval = ratio_interval(ratios)
        assert interval.lower is not None and interval.upper is not None
        readings.append(Reading(f"run-{i:02d}", interval.estimate, interval.lower, interval.upper, scenario.pairs))
    return readings, at


def study(scenario: Scenario, histories: int = 400, seed: int = 1) -> StudyResult:
    """The search run on `histories` synthetic histories of `scenario` (the same ones for the same seed)."""
    rng = random.Random(seed)
    detected = false_alarms = 0
    widths: list[float] = []
    for _ in range(histories):
        readings, at = simulate(scenario, rng)
        widths.extend((r.upper - r.lower) / 2 / r.ratio for r in readings)
        places = [c.index for c in change_points(readings)]
        if at is not None and any(abs(p - at) <= 1 for p in places):
            detected += 1
        if any(at is None or abs(p - at) > 1 for p in places):
            false_alarms += 1
    widths.sort()
    return StudyResult(scenario, histories, detected, false_alarms, widths[len(widths) // 2])


#: The default grid: steps of 0 to 5 % (the lab's median interval is about ±2 %), without and with drift between runs
#: as large as a run's own standard error.
DEFAULT_STEPS = (0.0, 0.01, 0.02, 0.03, 0.05)
DEFAULT_DRIFTS = (0.0, 0.005)


def default_study(histories: int = 400, seed: int = 1) -> list[StudyResult]:
    """The default grid's results, one per drift and step."""
    return [
        study(Scenario(drift=drift, step=step), histories, seed) for drift in DEFAULT_DRIFTS for step in DEFAULT_STEPS
    ]


def study_table(results: list[StudyResult]) -> str:
    """A markdown table of the results, a line per scenario."""
    lines = [
        "| runs | processes per run | reading's 99 % CI (median) | drift between runs | step | detected "
        "| false alarms |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        s = r.scenario
        detected = "—" if r.detection_rate is None else f"{r.detection_rate:.1%}"
        lines.append(
            f"| {s.runs} | {s.pairs} | ±{r.median_half_width:.2%} | {s.drift:.1%} | {s.step:.0%} | {detected} | "
            f"{r.false_alarm_rate:.1%} |"
        )
    lines.append(f"\n{results[0].histories if results else 0} histories per line.")
    return "\n".join(lines)
