"""What each replication design buys: ratio CI width per machine-minute, from runs of the same cells under each design.

For every comparable ratio (a benchmark over its group's baseline, both verified) of each run:
the spread of its per-pair log ratios (the noise one pair carries), the correlation between the
two sides of a pair (what measuring them close together shares), the half-width reached, and the
machine time its group used. From the spread and the cost of one pair, the machine-minutes one
ratio needs to reach a target half-width follow (harness.stats.replicates_for).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from analysis.compute.aggregate import RatioBook
from analysis.compute.load import RunData
from analysis.formatting.tables import markdown_table
from harness.model.folder.records import DEFAULT_RUNTIME, MEASURED, VerificationStatus
from harness.model.folder.run_records import RunRecord
from harness.model.folder.store import RunStore
from harness.model.groups import elapsed_s, is_aa_copy, rows_by_group
from harness.model.stats.pairing import paired_ratios
from harness.model.stats.stats import format_rel_ci, replicates_for


def _group_seconds(run: RunData) -> dict[tuple[str, str, str, str], float]:
    """Machine time per group, from the run's own records (a DataFrame turns an integer column with a gap, such as
    the `n` of an unavailable cell's row, into floats, which a ResultRow refuses)."""
    return {key: elapsed_s(group) for key, group in rows_by_group(RunStore(run.directory).rows().values()).items()}


def method_label(run: RunRecord) -> str:
    """A run's design as the comparison names it: 'paired', or 'interleaved, BenchmarkDotNet's automatic job' for a
    run of fresh processes whose job left every iteration setting to BenchmarkDotNet."""
    return f"{run.design}, BenchmarkDotNet's automatic job" if run.automatic_job else run.design


def ratio_noise(run: RunData, target: float = 0.02) -> pd.DataFrame:
    """One row per comparable ratio of one run."""
    rows = run.rows[run.rows["status"].isin(MEASURED)]
    book = RatioBook(rows)
    seconds = _group_seconds(run)
    out = []
    for (level, experiment, group, runtime), g in rows.groupby(
        ["isa_requested", "experiment", "group", "runtime_requested"], sort=False
    ):
        benchmarks = [b for b in dict.fromkeys(g["benchmark"]) if b != g["baseline"].iloc[0]]
        baseline = g["baseline"].iloc[0]
        if (g["verification_status"] == VerificationStatus.FAILED).any():
            benchmarks = [
                b
                for b in benchmarks
                if not (
                    g.loc[g["benchmark"].isin([b, baseline]), "verification_status"] == VerificationStatus.FAILED
                ).any()
            ]
        for benchmark in benchmarks:
            mine, theirs = book.replicates(experiment, benchmark, level, runtime), book.replicates(
                experiment, baseline, level, runtime
            )
            ratios = paired_ratios(mine, theirs)
            interval = book.interval(experiment, benchmark, baseline, level, runtime=runtime)
            if len(ratios) < 3 or interval is None:
                continue
            logs = np.log(ratios)
            group_s = seconds.get((level, experiment, group, runtime), float("nan"))
            rounds = max(r.round_index for r in mine)
            per_ratio_round_s = group_s / rounds / len(benchmarks)
            cv = float(np.std(logs, ddof=1))
            out.append(
                {
                    "design": method_label(run.run),
                    "run_id": run.run.run_id,
                    "cell": f"{experiment}:{benchmark}@{level}" + ("" if runtime == DEFAULT_RUNTIME else f"/{runtime}"),
                    # an A/A copy (paired design) is the engine's bias check, not a ratio the design is judged on
                    "aa": is_aa_copy(benchmark),
                    "ratio": interval.estimate,
                    "lower": interval.lower,
                    "upper": interval.upper,
                    "pairs": len(ratios),
                    "pair_cv": cv,
                    "pair_correlation": _pair_correlation(mine, theirs),
                    "rel_half_width": interval.relative_half_width,
                    "group_key": f"{experiment}:{group}@{level}/{runtime}",
                    "group_machine_s": group_s,
                    "machine_s_per_pair": per_ratio_round_s,
                    "minutes_to_target": replicates_for(target, cv) * per_ratio_round_s / 60,
                }
            )
    return pd.DataFrame(out)


def _pair_correlation(mine, theirs) -> float | None:
    """Pearson correlation of the log means of the two sides of each pair (None under three pairs)."""
    duet = {r.round_index: r.value_ns for r in theirs if r.partner == (mine[0].benchmark if mine else None)}
    by_round = duet or {r.round_index: r.value_ns for r in theirs if r.partner is None}
    pairs = [(math.log(r.value_ns), math.log(by_round[r.round_index])) for r in mine if r.round_index in by_round]
    if len(pairs) < 3:
        return None
    a, b = zip(*pairs)
    return float(np.corrcoef(a, b)[0, 1])


def design_summary(runs: list[RunData], target: float = 0.02) -> pd.DataFrame:
    """Per design: medians over its ratios, its machine time, and its median half-width at the first design's machine
    time (a 99% half-width narrows as one over the square root of the pairs, so of the machine time): the ratio of two
    designs' widths at equal machine time is what one buys over the other."""
    per_ratio = pd.concat([ratio_noise(run, target) for run in runs], ignore_index=True)
    if per_ratio.empty:
        return per_ratio
    per_ratio = per_ratio[~per_ratio["aa"]]
    machine = {
        design: g.drop_duplicates(["run_id", "group_key"])["group_machine_s"].sum() / 60
        for design, g in per_ratio.groupby("design", sort=False)
    }
    summary = (
        per_ratio.groupby("design", sort=False)
        .agg(
            ratios=("cell", "count"),
            pairs=("pairs", "median"),
            pair_cv=("pair_cv", "median"),
            pair_correlation=("pair_correlation", "median"),
            rel_half_width=("rel_half_width", "median"),
            machine_s_per_pair=("machine_s_per_pair", "median"),
            minutes_to_target=("minutes_to_target", "median"),
        )
        .reset_index()
    )
    return at_equal_time(summary, machine)


def at_equal_time(summary: pd.DataFrame, machine_minutes: dict[str, float]) -> pd.DataFrame:
    """The summary with each design's machine time and its median half-width projected to the first design's machine
    time (× sqrt(its time / the first's)), and that width over the first design's."""
    out = summary.copy()
    out["machine_minutes"] = out["design"].map(machine_minutes)
    first = float(out["machine_minutes"].iloc[0])
    out["equal_time_half_width"] = out["rel_half_width"] * (out["machine_minutes"] / first) ** 0.5
    out["width_vs_first"] = out["equal_time_half_width"] / float(out["equal_time_half_width"].iloc[0])
    return out


def design_markdown(summary: pd.DataFrame, target: float = 0.02) -> str:
    """The comparison table with its reading."""
    headers = [
        "Design",
        "Ratios",
        "Pairs per ratio",
        "Per-pair CV of the ratio",
        "Correlation within a pair",
        "Half-width reached (99%)",
        "Machine time per pair",
        f"Machine-minutes per ratio for ±{100 * target:.0f}%",
        "Machine time (min)",
        "Half-width at the first design's machine time",
        "Width at equal time (× the first's)",
    ]
    rows = [
        [
            r.design,
            r.ratios,
            f"{r.pairs:.0f}",
            f"{100 * r.pair_cv:.1f}%",
            "—" if pd.isna(r.pair_correlation) else f"{r.pair_correlation:.2f}",
            format_rel_ci(r.rel_half_width),
            f"{r.machine_s_per_pair:.1f} s",
            f"{r.minutes_to_target:.1f}",
            f"{r.machine_minutes:.1f}",
            format_rel_ci(r.equal_time_half_width),
            f"{r.width_vs_first:.2f}×",
        ]
        for r in summary.itertuples()
    ]
    return (
        "# Replication designs compared\n\nSame cells, same machine; each design's machine time is stated (its "
        "processes' wall time, a duet's counted once). 'Machine time per pair' is the wall time a group spends per "
        "round, divided by its ratios (a duet occupies both CPUs for one process's time). 'Machine-minutes per ratio' "
        f"projects the machine time one ratio needs for a 99% CI of ±{100 * target:.0f}% from the per-pair CV "
        "(Student-t). The last two columns project each design's median half-width to the first design's machine time "
        "(a 99% half-width narrows as one over the square root of the pairs): what one design buys over the other at "
        "equal time. Medians over each design's ratios.\n\n" + markdown_table(headers, rows)
    )


def agreement_markdown(per_ratio: pd.DataFrame, reference: str = "paired") -> str:
    """Each ratio as every design measured it, and whether the reference design's interval overlaps each other design's:
    pairing inside one process must not move a ratio, only narrow it. A/A copies are listed with their ratio to 1."""
    if per_ratio.empty or reference not in set(per_ratio["design"]):
        return ""
    designs = list(dict.fromkeys(per_ratio["design"]))
    others = [d for d in designs if d != reference]
    rows, agree, total = [], 0, 0
    for cell, g in per_ratio.groupby("cell", sort=False):
        by = {r.design: r for r in g.itertuples()}
        mine = by.get(reference)
        line = [cell + (" (A/A)" if bool(g["aa"].iloc[0]) else "")]
        line += ["—" if d not in by else f"{by[d].ratio:.3f} [{by[d].lower:.3f}, {by[d].upper:.3f}]" for d in designs]
        for d in others:
            if mine is None or d not in by:
                line.append("—")
                continue
            overlap = mine.lower <= by[d].upper and by[d].lower <= mine.upper
            total += 1
            agree += overlap
            line.append(f"{100 * (mine.ratio / by[d].ratio - 1):+.1f}%" + ("" if overlap else " **apart**"))
        rows.append(line)
    headers = ["Ratio", *designs, *(f"{reference} vs {d}" for d in others)]
    return (
        "\n## Does the method move the ratios?\n\nEach ratio with its 99% interval under every design (and job: "
        "BenchmarkDotNet's automatic job is the write-ups' method, `just method-control`); the last columns "
        "give "
        f"the {reference} estimate's difference from each other design's, and mark intervals that do not overlap. "
        f"{agree} of {total} comparisons overlap.\n\n" + markdown_table(headers, rows)
    )
