"""Why a group's ratios stayed wide: for every group whose widest ratio 99% CI is wider than WIDE_RATIO_CI, where the
spread of that ratio comes from, read from the run's own rows.

A ratio's interval is set by how much its per-process ratios differ (the process is the replicate). In the paired design
each process also tells how well it knew its own ratio: the spread of its per-round burst ratios. Comparing the two
names the cause: processes that each knew their ratio well but disagree with one another (something fixed per process:
where its data landed in memory, what its JIT decided), or bursts too noisy for a process to know its ratio. The
group's A/A copy (the baseline against a copy of itself) separates the first case further: when it spreads as much
between processes, the spread is in how a process runs the baseline's own code and data, not in the comparison.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

import pandas as pd

from analysis.render.tables import format_rel_ci

from analysis.defaults import WIDE_RATIO_CI
from analysis.compute.replicates import MEASURED
from harness.model.pairing import paired_ratios, replicate_of
from harness.model.groups import AA_SUFFIX

#: The standard error of a median of normal values is this many times that of their mean.
MEDIAN_EFFICIENCY = math.sqrt(math.pi / 2)


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
                "so process-to-process differences enter the ratio"
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
            return text
        calls = f" ({self.calls_per_burst:.0f} calls per burst)" if self.calls_per_burst else ""
        return f"noisy bursts: each process knew its own ratio only to ±{100 * self.within:.1f}%{calls}, and {spread}"


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
        ref = by_process.get(v.process)
        if ref is not None and len(v.bursts) == len(ref.bursts) >= 2:
            sd = _log_sd([a / b for a, b in zip(v.bursts, ref.bursts)])
            if sd is not None:
                within.append(MEDIAN_EFFICIENCY * sd / math.sqrt(len(v.bursts)))
    aa = [replicate_of(r, r.median_ns) for r in rows[rows["benchmark"] == baseline + AA_SUFFIX].itertuples()]
    aa_between = _log_sd(paired_ratios(aa, theirs)) if aa else None
    calls = (
        rows.loc[rows["benchmark"] == benchmark, "invocation_count"].median() if "invocation_count" in rows else None
    )
    return Spread(
        benchmark,
        len(ratios),
        _log_sd(ratios),
        statistics.median(within) if within else None,
        aa_between,
        None if calls is None or pd.isna(calls) else float(calls),
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
