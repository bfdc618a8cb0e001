"""The overlap probe's readings (harness/commands/overlap_probe.py): one row per timed process, and per group what the
load on the other CPU did to its ratios, their between-process spread and its members' times."""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

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

    @staticmethod
    def of(
        group: str, condition: str, process: int, wall_s: float, warm_ups: int, baseline: int, times: list[list[float]]
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
        )


def summary(rows: list[ProbeRow]) -> list[dict]:
    """Per group with 3 or more processes under each condition: per member the geometric mean ratio to the baseline and
    its between-process log-sd under each condition, the load's effect on the ratio and on the median time; then one
    entry for the group: the median of its members' log-sds and its median process wall time, per condition."""
    out: list[dict] = []
    for group in sorted({r.group for r in rows}):
        by = {c: [r for r in rows if r.group == group and r.condition == c] for c in CONDITIONS}
        if any(len(picked) < 3 for picked in by.values()):
            continue
        spreads: dict[str, list[float]] = {c: [] for c in CONDITIONS}
        for m in range(len(by["idle"][0].medians_ns)):
            entry = _member(group, m, by)
            for c in CONDITIONS:
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


def _member(group: str, m: int, by: dict[str, list[ProbeRow]]) -> dict:
    baseline = by["idle"][0].baseline
    entry: dict = {"group": group, "member": m, "baseline": m == baseline}
    for condition, picked in by.items():
        entry[f"{condition}_median_ns"] = statistics.median(r.medians_ns[m] for r in picked)
        if m != baseline:
            logs = [math.log(r.ratios[m]) for r in picked]
            entry[f"{condition}_ratio"] = math.exp(statistics.fmean(logs))
            entry[f"{condition}_ratio_sd_pct"] = 100 * statistics.stdev(logs)
    entry["time_load_vs_idle"] = entry["load_median_ns"] / entry["idle_median_ns"]
    if m != baseline:
        entry["ratio_load_vs_idle"] = entry["load_ratio"] / entry["idle_ratio"]
    return entry
