"""What an anchor inside each process could buy a ratio across runtimes, measured on a stored paired run.

A ratio across runtimes (one benchmark on runtime A over itself, or another benchmark, on runtime B) is taken
between two processes, since no process holds two runtimes: the pairs share a round, not a process, and every
difference in machine speed between the two processes lands in the ratio. A proposed design times, in every
process, an anchor workload beside the benchmark and takes the ratio of ratios (benchmark / anchor on A) over
(benchmark / anchor on B): whatever speed the process's machine had cancels, as far as the anchor feels it as the
benchmark does.

This tool measures how far that can go before anything is built. Each other member M of the benchmark's group ran
in the same processes on both runtimes, so (B / M on A) over (B / M on B) is what an anchor with M's sensitivity
would leave of each pair's noise. M is not runtime-independent, so that ratio of ratios estimates another quantity;
only its spread is read here: the per-pair spread (log SD) of the plain ratio against the anchored one, the
median over the co-members. The same for an A/A across processes: the benchmark on one runtime, its odd rounds
over its even rounds (two processes of one build, nothing differing but the process), plain and anchored, and
whether each interval holds 1.
"""

from __future__ import annotations

import itertools
import math
import pathlib
import statistics

import pandas as pd

from analysis.compute.aggregate import RatioBook
from analysis.compute.load import RunData
from analysis.formatting.names import runtime_order
from analysis.formatting.tables import markdown_table
from harness.model.groups import AA_SUFFIX, is_aa_copy
from harness.model.pairing import Replicate, burst_ratio
from harness.model.records import MEASURED
from harness.model.stats import Interval, format_rel_ci, ratio_interval

#: Fewest pairs a ratio needs to have a spread read here.
MIN_PAIRS = 3


def _by_round(replicates: list[Replicate]) -> dict[int, Replicate]:
    """One paired process per round (rounds with two replicates of one cell are left out: no single process)."""
    rounds: dict[int, list[Replicate]] = {}
    for r in replicates:
        if r.process and r.bursts:
            rounds.setdefault(r.round_index, []).append(r)
    return {k: v[0] for k, v in rounds.items() if len(v) == 1}


def _in_process(mine: dict[int, Replicate], anchor: dict[int, Replicate]) -> dict[int, float]:
    """Per round, mine / anchor inside the one process that ran both (the median of their burst ratios)."""
    return {
        k: burst_ratio(r, anchor[k])
        for k, r in mine.items()
        if k in anchor and anchor[k].process == r.process and len(anchor[k].bursts) == len(r.bursts)
    }


def _log_sd(ratios: list[float]) -> float:
    return statistics.stdev(math.log(r) for r in ratios)


def _holds_1(interval: Interval) -> bool:
    return interval.lower is not None and interval.upper is not None and interval.lower <= 1 <= interval.upper


def _spread_row(kind: str, label: str, plain: list[float], anchored: list[list[float]]) -> dict | None:
    """One ratio's plain and anchored spread (anchored: each co-member's pairs, the median spread over them)."""
    anchored = [a for a in anchored if len(a) >= MIN_PAIRS]
    if len(plain) < MIN_PAIRS or not anchored:
        return None
    plain_interval = ratio_interval(plain)
    spreads = [_log_sd(a) for a in anchored]
    middle = sorted(range(len(spreads)), key=spreads.__getitem__)[len(spreads) // 2]
    anchored_interval = ratio_interval(anchored[middle])
    return {
        "kind": kind,
        "ratio": label,
        "pairs": len(plain),
        "anchors": len(anchored),
        "plain_log_sd": _log_sd(plain),
        "anchored_log_sd": spreads[middle],
        "plain_rel_half_width": plain_interval.relative_half_width,
        "anchored_rel_half_width": anchored_interval.relative_half_width,
        "plain_holds_1": _holds_1(plain_interval),
        "anchored_holds_1": _holds_1(anchored_interval),
    }


def _members(rows: pd.DataFrame) -> dict[tuple[str, str, str], dict[str, list[str]]]:
    """(ISA level, experiment, group) → runtime → the group's measured benchmarks on it."""
    out: dict[tuple[str, str, str], dict[str, list[str]]] = {}
    for (level, experiment, group, runtime), g in rows.groupby(
        ["isa_requested", "experiment", "group", "runtime_requested"], sort=False
    ):
        out.setdefault((level, experiment, group), {})[runtime] = list(dict.fromkeys(g["benchmark"]))
    return out


def anchor_spreads(run: RunData) -> pd.DataFrame:
    """One row per ratio across runtimes (each benchmark, each pair of its group's runtimes, newer over older) and per
    A/A across processes (each benchmark on each runtime, odd rounds over even ones)."""
    if run.rows.empty or "burst_ns" not in run.rows:  # no row at all (a torn first line), or none of a paired process
        return pd.DataFrame()
    rows = run.rows[run.rows["status"].isin(MEASURED)]
    if rows.empty:
        return pd.DataFrame()
    book = RatioBook(rows)
    out = []
    for (level, experiment, group), runtimes in _members(rows).items():
        rounds = {
            (rt, b): _by_round(book.replicates(experiment, b, level, rt))
            for rt, benchmarks in runtimes.items()
            for b in benchmarks
        }
        for rt, benchmarks in runtimes.items():
            for b in (b for b in benchmarks if not is_aa_copy(b)):
                out.append(_aa_row(f"{experiment}:{b}@{level}/{rt}", rounds, rt, b, benchmarks))
        for old, new in itertools.combinations(sorted(runtimes, key=runtime_order), 2):
            shared = [b for b in runtimes[new] if b in runtimes[old]]
            for b in (b for b in shared if not is_aa_copy(b)):
                mine, theirs = rounds[(new, b)], rounds[(old, b)]
                plain = [mine[k].value_ns / theirs[k].value_ns for k in sorted(mine) if k in theirs]
                anchored = []
                for m in (m for m in shared if m != b and m != b + AA_SUFFIX):
                    on_new, on_old = _in_process(mine, rounds[(new, m)]), _in_process(theirs, rounds[(old, m)])
                    anchored.append([on_new[k] / on_old[k] for k in sorted(on_new) if k in on_old])
                out.append(_spread_row("across runtimes", f"{experiment}:{b}@{level} {new}/{old}", plain, anchored))
    return pd.DataFrame([r for r in out if r is not None])


def _aa_row(label: str, rounds: dict, runtime: str, benchmark: str, members: list[str]) -> dict | None:
    """The benchmark's odd rounds over its even rounds on one runtime, plain and anchored on each co-member."""
    mine = rounds[(runtime, benchmark)]
    keys = sorted(mine)
    pairs = list(zip(keys[0::2], keys[1::2]))
    plain = [mine[a].value_ns / mine[b].value_ns for a, b in pairs]
    anchored = []
    for m in (m for m in members if m != benchmark and m != benchmark + AA_SUFFIX):
        inside = _in_process(mine, rounds[(runtime, m)])
        anchored.append([inside[a] / inside[b] for a, b in pairs if a in inside and b in inside])
    return _spread_row("A/A across processes", label, plain, anchored)


def anchor_summary(spreads: pd.DataFrame) -> pd.DataFrame:
    """Per kind: medians over its ratios, and how many intervals hold 1."""
    if spreads.empty:
        return spreads
    return (
        spreads.groupby("kind", sort=False)
        .agg(
            ratios=("ratio", "count"),
            pairs=("pairs", "median"),
            plain_log_sd=("plain_log_sd", "median"),
            anchored_log_sd=("anchored_log_sd", "median"),
            plain_rel_half_width=("plain_rel_half_width", "median"),
            anchored_rel_half_width=("anchored_rel_half_width", "median"),
            plain_holds_1=("plain_holds_1", "sum"),
            anchored_holds_1=("anchored_holds_1", "sum"),
        )
        .reset_index()
    )


def anchor_markdown(run: RunData, summary: pd.DataFrame) -> str:
    """The summary table with its reading."""
    headers = [
        "Ratios",
        "Count",
        "Pairs (median)",
        "Per-pair spread, plain",
        "… anchored in-process",
        "Half-width (99%), plain",
        "… anchored",
        "Intervals holding 1, plain / anchored",
    ]
    rows = [
        [
            r.kind,
            r.ratios,
            f"{r.pairs:.0f}",
            f"{100 * r.plain_log_sd:.1f}%",
            f"{100 * r.anchored_log_sd:.1f}%",
            format_rel_ci(r.plain_rel_half_width),
            format_rel_ci(r.anchored_rel_half_width),
            f"{r.plain_holds_1} / {r.anchored_holds_1} of {r.ratios}",
        ]
        for r in summary.itertuples()
    ]
    return (
        f"# What an in-process anchor could buy ratios across runtimes (run {run.run.run_id})\n\n"
        "Each ratio across runtimes pairs two processes of one round; 'anchored' divides each side by another member "
        "of its group timed in the same process (the median spread over the co-members), which is what an anchor "
        "workload with that member's sensitivity to the machine would leave. The co-members are not "
        "runtime-independent, so only the spreads are compared, not the anchored estimates. The A/A rows pair a "
        "benchmark's odd rounds with its even rounds on one runtime: only the process differs, so every interval "
        "should hold 1 (a 99% interval misses it about once in a hundred).\n\n" + markdown_table(headers, rows)
    )


def write_anchors(run: RunData, out: pathlib.Path) -> pathlib.Path:
    """anchors.md and anchors.csv (one row per ratio) in `out`; returns the markdown's path."""
    spreads = anchor_spreads(run)
    out.mkdir(parents=True, exist_ok=True)
    spreads.to_csv(out / "anchors.csv", index=False)
    path = out / "anchors.md"
    path.write_text(anchor_markdown(run, anchor_summary(spreads)), encoding="utf-8")
    return path
