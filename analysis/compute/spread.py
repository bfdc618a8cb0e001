"""Why a group's ratios stayed wide: for every group whose widest ratio 99% CI is wider than WIDE_RATIO_CI, where the
spread of that ratio comes from, read from the run's own rows.

A ratio's interval is set by how much its per-process ratios differ (the process is the replicate). In the paired design
each process also tells how well it knew its own ratio: the spread of its per-round burst ratios. Comparing the two
names the cause: processes that each knew their ratio well but disagree with one another (something fixed per process:
where its data landed in memory, what its JIT decided), or bursts too noisy for a process to know its ratio. The
group's A/A copy (the baseline against a copy of itself) separates the first case further: when it spreads as much
between processes, the spread is in how a process runs the baseline's own code and data, not in the comparison.

Processes that disagree sometimes fall into two speeds: each side's per-process times are checked for two clusters
(TwoSpeeds), so the report can say "ran at one of two speeds, 3 processes at 4.0-4.5 ms and 4 at 6.2-6.6 ms" instead
of only "processes disagree" (run 2026-11-25T22-37-24Z: System.Text.Json deserializing 10,000 Person on .NET 10).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

import pandas as pd

from analysis.defaults import WIDE_RATIO_CI
from analysis.formatting.tables import format_ns
from harness.model.folder.records import MEASURED
from harness.model.groups import AA_SUFFIX
from harness.model.stats.pairing import paired_ratios, replicate_of
from harness.model.stats.stats import format_rel_ci

#: The standard error of a median of normal values is this many times that of their mean.
MEDIAN_EFFICIENCY = math.sqrt(math.pi / 2)

#: Two speeds: the widest gap between a side's sorted per-process log times must be at least this many times the
#: clusters' pooled standard deviation, and at least MIN_SPEED_GAP, with two or more processes in each cluster (one
#: suffices from SINGLE_PROCESS_CLUSTER_FROM processes on). Simulated on normal samples (log sd 5%), this calls one
#: speed two in 2.0% of samples of 6 processes, 1.8% of 7 (a cluster of one allowed), 0.8% of 8 and under 0.1% of
#: 12; the two-speed groups of runs 2026-11-25T22-37-24Z and 2026-11-25T23-35-33Z (003 deserialize-big on .NET 10)
#: stand at 7.3 and 9.6.
SPEED_GAP_FACTOR = 6.0
SINGLE_PROCESS_CLUSTER_FROM = 7
MIN_SPEED_GAP = 0.05


@dataclass(frozen=True)
class TwoSpeeds:
    """One side's processes in two clusters of per-process times (ns, ascending)."""

    benchmark: str
    fast: tuple[float, ...]
    slow: tuple[float, ...]

    @property
    def apart(self) -> float:
        """How many times slower the slow cluster's median is than the fast one's."""
        return statistics.median(self.slow) / statistics.median(self.fast)

    def text(self) -> str:
        processes = len(self.fast) + len(self.slow)
        if len(self.slow) == 1:
            return (
                f"one of {self.benchmark}'s {processes} processes ran {self.apart:.2f}× slower than the others "
                f"({_ns_range(self.slow)} against {_ns_range(self.fast)})"
            )
        if len(self.fast) == 1:
            return (
                f"one of {self.benchmark}'s {processes} processes ran {self.apart:.2f}× faster than the others "
                f"({_ns_range(self.fast)} against {_ns_range(self.slow)})"
            )
        return (
            f"{self.benchmark} ran at one of two speeds, {len(self.fast)} processes at {_ns_range(self.fast)} and "
            f"{len(self.slow)} at {_ns_range(self.slow)} ({self.apart:.2f}× apart)"
        )


def _ns_range(values: tuple[float, ...]) -> str:
    """'4.0–4.5 ms' (one unit), or one value."""
    low, high = format_ns(values[0]), format_ns(values[-1])
    if len(values) == 1 or low == high:
        return low
    low_number, low_unit = low.rsplit(" ", 1)
    high_unit = high.rsplit(" ", 1)[1]
    return f"{low_number}–{high}" if low_unit == high_unit else f"{low}–{high}"


def two_speeds(benchmark: str, per_process_ns: list[float]) -> TwoSpeeds | None:
    """The two clusters of a side's per-process times, or None when they form one."""
    values = sorted(v for v in per_process_ns if v > 0)
    if len(values) < 4:
        return None
    logs = [math.log(v) for v in values]
    smallest = 1 if len(logs) >= SINGLE_PROCESS_CLUSTER_FROM else 2
    cut = max(range(smallest, len(logs) - smallest + 1), key=lambda i: logs[i] - logs[i - 1])
    gap = logs[cut] - logs[cut - 1]
    low, high = logs[:cut], logs[cut:]
    squares = sum((x - statistics.fmean(part)) ** 2 for part in (low, high) for x in part)
    pooled = math.sqrt(squares / max(len(logs) - 2, 1))
    if gap < MIN_SPEED_GAP or gap < SPEED_GAP_FACTOR * pooled:
        return None
    return TwoSpeeds(benchmark, tuple(values[:cut]), tuple(values[cut:]))


@dataclass(frozen=True)
class Spread:
    """Where one ratio's spread comes from (all spreads are standard deviations of logarithms, as fractions)."""

    benchmark: str
    processes: int
    between: float | None  # of the per-process ratios
    # how well one process knew its own ratio (median over processes); None outside the paired design
    within: float | None
    aa_between: float | None  # of the group's A/A copy's per-process ratios
    calls_per_burst: float | None
    # each side's processes in two speeds, when they are (the variant's first)
    speeds: tuple[TwoSpeeds, ...] = ()
    # the log spread of the per-process times of each side that did not split, by benchmark
    steady: tuple[tuple[str, float], ...] = ()

    def _speeds_text(self) -> str:
        if not self.speeds:
            return ""
        text = "; " + "; ".join(s.text() for s in self.speeds)
        if self.steady:
            text += ", while " + " and ".join(f"{name}'s processes spread {100 * sd:.1f}%" for name, sd in self.steady)
        return text + ": a speed decided once per process"

    def reason(self, design: str) -> str:
        """The cause in one sentence."""
        if self.between is None:
            return f"only {self.processes} process(es) with both sides measured"
        spread = (
            f"per-process ratios of {self.benchmark} spread {100 * self.between:.1f}% over {self.processes} processes"
        )
        if self.within is None:
            return (
                f"{spread}: a {design} design, each side in processes of its own, "
                "so process-to-process differences enter the ratio" + self._speeds_text()
            )
        if self.between > 2 * self.within:
            text = f"processes disagree: {spread} while each process knew its own ratio to ±{100 * self.within:.1f}%"
            if self.aa_between is not None and self.aa_between >= self.between / 2:
                text += (
                    f"; the baseline's A/A copy spreads {100 * self.aa_between:.1f}% the same way, so the cause is "
                    "fixed per process "
                    "in how it runs the baseline's own code and data (placement in memory, JIT decisions), not the "
                    "comparison"
                )
            return text + self._speeds_text()
        calls = f" ({self.calls_per_burst:.0f} calls per burst)" if self.calls_per_burst else ""
        return (
            f"noisy bursts: each process knew its own ratio only to ±{100 * self.within:.1f}%{calls}, and {spread}"
            + self._speeds_text()
        )


def _log_sd(values: list[float]) -> float | None:
    logs = [math.log(v) for v in values if v > 0]
    return statistics.stdev(logs) if len(logs) >= 2 else None


def ratio_spread(rows: pd.DataFrame, benchmark: str, baseline: str) -> Spread:
    """The spread of `benchmark` over `baseline` within one group's measured rows."""
    mine = [replicate_of(r, r.median_ns) for r in rows[rows["benchmark"] == benchmark].itertuples()]
    theirs = [replicate_of(r, r.median_ns) for r in rows[rows["benchmark"] == baseline].itertuples()]
    ratios = paired_ratios(mine, theirs)
    by_process = {r.process: r for r in theirs if r.process}
    within = []
    for v in mine:
        ref = None if v.process is None else by_process.get(v.process)
        if ref is not None and len(v.bursts) == len(ref.bursts) >= 2:
            sd = _log_sd([a / b for a, b in zip(v.bursts, ref.bursts)])
            if sd is not None:
                within.append(MEDIAN_EFFICIENCY * sd / math.sqrt(len(v.bursts)))
    aa = [replicate_of(r, r.median_ns) for r in rows[rows["benchmark"] == baseline + AA_SUFFIX].itertuples()]
    aa_between = _log_sd(paired_ratios(aa, theirs)) if aa else None
    calls = (
        rows.loc[rows["benchmark"] == benchmark, "invocation_count"].median() if "invocation_count" in rows else None
    )
    speeds, steady = [], []
    for name, side in ((benchmark, mine), (baseline, theirs)):
        split = two_speeds(name, [r.value_ns for r in side])
        if split is not None:
            speeds.append(split)
        else:
            sd = _log_sd([r.value_ns for r in side])
            if sd is not None:
                steady.append((name, sd))
    return Spread(
        benchmark,
        len(ratios),
        _log_sd(ratios),
        statistics.median(within) if within else None,
        aa_between,
        None if calls is None or pd.isna(calls) else float(calls),
        tuple(speeds),
        tuple(steady) if speeds else (),
    )


def wide_groups(rows: pd.DataFrame, cells: pd.DataFrame, limit: float = WIDE_RATIO_CI) -> list[tuple[str, str]]:
    """(group label, reason) for each group whose widest ratio CI exceeds `limit`, widest first."""
    comparable = cells[
        cells["status"].isin(MEASURED)
        & (cells["benchmark"] != cells["baseline"])
        & ~cells["comparison_void"]
        & ~cells["benchmark"].str.endswith(AA_SUFFIX)
        & (cells["ratio_rel_ci99"] > limit)
    ]
    measured = rows[rows["status"].isin(MEASURED)]
    keys = ["isa_requested", "experiment", "group", "runtime_requested"]
    out = []
    for key, g in comparable.sort_values("ratio_rel_ci99", ascending=False).groupby(keys, sort=False):
        widest = g.iloc[0]
        mine = measured
        for column, value in zip(keys, key):
            mine = mine[mine[column] == value]
        design = "/".join(sorted(set(mine["design"].dropna()))) if "design" in mine else "?"
        spread = ratio_spread(mine, widest["benchmark"], widest["baseline"])
        label = f"{key[1]}/{key[2]} at {key[0]} · {key[3]} ({format_rel_ci(widest['ratio_rel_ci99'])})"
        out.append((label, spread.reason(design)))
    return out


def wide_groups_markdown(rows: pd.DataFrame, cells: pd.DataFrame, limit: float = WIDE_RATIO_CI) -> str:
    """The list under the Precision table: each group wider than the limit, with its cause."""
    wide = wide_groups(rows, cells, limit)
    if not wide:
        return ""
    return (
        f"Groups with a ratio wider than ±{100 * limit:.0f}% ({len(wide)}), and why (from this run's rows; the widest "
        "ratio of each):\n\n" + "\n".join(f"- {label}: {reason}." for label, reason in wide) + "\n\n"
    )
