"""How many lab processes a minute the paired-pipelined design finishes, from what one process costs on each side, as
the newest run of the same design and job measured them (harness/planning/history.py): on a lab CPU, its time there
(the re-warm after the hand-over and its bursts: its rows' wall time); on a warm CPU, its runtime start, verification
and prewarm, or (rows of schema 11) the time from its launch to its warm line as the harness saw it, which also holds
the container's exec and the runtime's start before the lab's main. A process that played extra rounds while the next
one warmed (the job's extend_rounds) counts without them: they fill the time a lab CPU would otherwise wait; so does
a process's warm-up finished on the lab's CPU (lab_warm_ms), which counts as warm-up. The pipeline runs at the pace of
its slower side: with `lab` lab CPUs and `warm` warm CPUs, min(lab / lab_s, warm / warm_s) processes a second, and a
lab CPU spends the rest of its time waiting for a warm process. When a process not yet warm finishes warming on a
free lab CPU (the job's warm_on_lab_cpu), that rest goes to its warm-up rather than to waiting, and the pace is the
same: one process's warm-up runs on one CPU at a time, wherever it runs, so it is not done sooner; only the process
after it starts warming earlier, and in a steady pipeline that gains nothing (docs/findings.md, "What the lab's CPU
waits for in the pipeline"). The model holds when the CPUs do not slow each other (the A/A of a run says whether they
did) and the harness's own work between processes is small beside a process.

`best_split` is the model read for a machine with more CPUs: the numbers of lab and warm CPUs that finish the most
processes a minute with the same costs (ties: fewer lab CPUs, the fewer the measurements that could disturb each
other)."""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from harness.model.json_value import JsonMapping, as_number

#: A row's parts done on the warm CPU before its hand-over, in ms.
WARM_PARTS = ("start_to_main_ms", "verify_ms", "prewarm_ms")


@dataclass(frozen=True)
class ProcessCosts:
    """What one handed-over process costs, medians over a run's processes: seconds on a lab CPU and on a warm CPU."""

    lab_s: float
    warm_s: float
    processes: int
    run: str = ""


@dataclass(frozen=True)
class Pace:
    """The pipeline's pace with `lab` lab CPUs and `warm` warm CPUs."""

    lab: int
    warm: int
    per_minute: float
    lab_waiting: float  # the share of a lab CPU's time spent waiting for a warm process
    extends: bool = False  # that time goes to extra rounds of the process it has (the job's extend_rounds)
    shares: bool = False  # that time goes to finishing warm-ups (the job's warm_on_lab_cpu)

    def text(self) -> str:
        cpus = f"{self.lab} lab CPU{'s' if self.lab != 1 else ''}, {self.warm} warm CPU{'s' if self.warm != 1 else ''}"
        spare = "finishing warm-ups" if self.shares else "playing extra rounds" if self.extends else "waiting"
        return f"{cpus}: about {self.per_minute:.0f} processes a minute, the lab's CPUs {spare} {self.lab_waiting:.0%}"


def process_costs(rows: Iterable[JsonMapping], run: str = "") -> ProcessCosts | None:
    """The medians over a run's handed-over processes (rows with `rewarm_ms`; a process's rows share its log); None
    when the run handed over none. A time that is not a number reads as absent."""
    lab: dict[str, float] = defaultdict(float)
    warm: dict[str, float] = {}
    for row in rows:
        duration = as_number(row.get("duration_s"))
        if row.get("rewarm_ms") is None or not duration:
            continue
        key = str(row.get("log_path") or row.get("raw_path") or f"{row.get('cell_id')}#{row.get('round_index')}")
        beside = (as_number(row.get("extra_rounds_ms")) or 0.0) + (as_number(row.get("lab_warm_ms")) or 0.0)
        lab[key] += max(duration - beside / 1000, 0.0)
        to_line = as_number(row.get("warm_line_ms"))
        warm[key] = (
            warm.get(key, 0.0) + to_line / 1000  # a share per cell, like the duration
            if to_line is not None
            else max(warm.get(key, 0.0), sum(as_number(row.get(part)) or 0.0 for part in WARM_PARTS) / 1000)
        )
    if not lab:
        return None
    return ProcessCosts(statistics.median(lab.values()), statistics.median(warm.values()), len(lab), run)


def pace(costs: ProcessCosts, lab: int, warm: int, extends: bool = False, shares: bool = False) -> Pace:
    """Processes a minute with `lab` and `warm` CPUs, and how long the lab's CPUs wait (`extends`: play extra rounds
    instead; `shares`: finish the warm-ups of processes not yet warm instead)."""
    if lab < 1 or warm < 1:
        raise ValueError("the pipeline needs at least one lab CPU and one warm CPU")
    per_second = min(lab / costs.lab_s, warm / costs.warm_s) if costs.warm_s > 0 else lab / costs.lab_s
    return Pace(lab, warm, per_second * 60, max(0.0, 1 - per_second * costs.lab_s / lab), extends, shares)


def best_split(costs: ProcessCosts, cpus: int, extends: bool = False, shares: bool = False) -> Pace:
    """The split of `cpus` CPUs into lab and warm ones that paces the most processes a minute (ties: fewer lab CPUs)."""
    if cpus < 2:
        raise ValueError("the pipeline needs two CPUs: one to measure on and one to warm on")
    paces = [pace(costs, lab, cpus - lab, extends, shares) for lab in range(1, cpus)]
    return max(paces, key=lambda p: (round(p.per_minute, 9), -p.lab))
