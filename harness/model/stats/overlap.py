"""The overlap and pipeline probes' readings (harness/commands/overlap_probe.py, pipeline_probe.py): one row per timed
process, and per group what one condition (a load on the other CPU; a pipelined hand-over) did against the other to
its ratios, their between-process spread and its members' times."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

#: The overlap probe's two conditions, control first.
CONDITIONS = ("idle", "load")


@dataclass(frozen=True)
class ProbeRow:
    """One timed process: its group, condition, index, wall time, warm-ups completed beside it, the baseline member,
    each member's median time and its ratio to the baseline (the median of per-round ratios, as the harness reads a
    paired process)."""

    group: str
    condition: str
    process: int
    wall_s: float
    load_warm_ups: int
    baseline: int
    medians_ns: list[float]
    ratios: list[float]
    timings: dict | None = None  # what the process wrote of itself (process.json), where the probe keeps it

    @staticmethod
    def of(
        group: str,
        condition: str,
        process: int,
        wall_s: float,
        warm_ups: int,
        baseline: int,
        times: list[list[float]],
        timings: dict | None = None,
    ) -> ProbeRow:
        """The row of a process whose members timed these per-round times (in member order)."""
        base = times[baseline]
        return ProbeRow(
            group,
            condition,
            process,
            wall_s,
            warm_ups,
            baseline,
            [statistics.median(t) for t in times],
            [statistics.median(m / b for m, b in zip(member, base)) for member in times],
            timings,
        )


def summary(rows: list[ProbeRow], conditions: tuple[str, str] = CONDITIONS) -> list[dict]:
    """Per group with 3 or more processes under each condition: per member the geometric mean ratio to the baseline and
    its between-process log-sd under each condition, the second condition's effect on the ratio and on the median time
    (`ratio_<second>_vs_<first>`, `time_…`); then one entry for the group: the median of its members' log-sds and its
    median process wall time, per condition."""
    out: list[dict] = []
    for group in sorted({r.group for r in rows}):
        by = {c: [r for r in rows if r.group == group and r.condition == c] for c in conditions}
        if any(len(picked) < 3 for picked in by.values()):
            continue
        spreads: dict[str, list[float]] = {c: [] for c in conditions}
        for m in range(len(by[conditions[0]][0].medians_ns)):
            entry = _member(group, m, by, conditions)
            for c in conditions:
                if f"{c}_ratio_sd_pct" in entry:
                    spreads[c].append(entry[f"{c}_ratio_sd_pct"])
            out.append(entry)
        out.append(
            {
                "group": group,
                "processes": {c: len(picked) for c, picked in by.items()},
                "median_ratio_sd_pct": {c: statistics.median(v) if v else None for c, v in spreads.items()},
                "median_wall_s": {c: statistics.median(r.wall_s for r in picked) for c, picked in by.items()},
            }
        )
    return out


def _member(group: str, m: int, by: dict[str, list[ProbeRow]], conditions: tuple[str, str]) -> dict:
    first, second = conditions
    baseline = by[first][0].baseline
    entry: dict = {"group": group, "member": m, "baseline": m == baseline}
    for condition, picked in by.items():
        entry[f"{condition}_median_ns"] = statistics.median(r.medians_ns[m] for r in picked)
        if m != baseline:
            logs = [math.log(r.ratios[m]) for r in picked]
            entry[f"{condition}_ratio"] = math.exp(statistics.fmean(logs))
            entry[f"{condition}_ratio_sd_pct"] = 100 * statistics.stdev(logs)
    entry[f"time_{second}_vs_{first}"] = entry[f"{second}_median_ns"] / entry[f"{first}_median_ns"]
    if m != baseline:
        entry[f"ratio_{second}_vs_{first}"] = entry[f"{second}_ratio"] / entry[f"{first}_ratio"]
    return entry
