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

Where the processes also timed the native anchors (job setting native_anchors: the same machine code on every runtime,
lab/dotnet/native), each ratio is also read through each of them, and there the anchored ratio of ratios does estimate
the ratio across runtimes: its value is given beside the plain one. Each native anchor's own ratio across runtimes
(the anchor on one runtime over itself on the other) is a check that the runtime does not change it: its interval
should hold 1. A ratio of ratios is read only between processes that loaded the same library (its sha256).
"""

from __future__ import annotations

import itertools
import math
import pathlib

import pandas as pd

from analysis.compute.aggregate import RatioBook
from analysis.compute.load import RunData
from analysis.formatting.names import runtime_order
from analysis.formatting.tables import markdown_table
from analysis.tools.native_anchors import (
    AA,
    ACROSS,
    MIN_PAIRS,
    NATIVE_ACROSS,
    anchor_rows,
    holds_1,
    log_sd,
    native_columns,
    native_names,
    native_times,
    ratio_of_ratios,
    through_native,
)
from harness.model.folder.records import MEASURED
from harness.model.groups import AA_SUFFIX, is_aa_copy
from harness.model.stats.pairing import Replicate, burst_ratio
from harness.model.stats.stats import format_rel_ci, ratio_interval


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


def _spread_row(kind: str, label: str, plain: list[float], anchored: list[list[float]], native: dict) -> dict | None:
    """One ratio's plain and anchored spread (anchored: each co-member's pairs, the median spread over them; native:
    the columns of _native_columns)."""
    anchored = [a for a in anchored if len(a) >= MIN_PAIRS]
    if len(plain) < MIN_PAIRS or not (anchored or any(k.endswith("_log_sd") for k in native)):
        return None
    plain_interval = ratio_interval(plain)
    row = {
        "kind": kind,
        "ratio": label,
        "pairs": len(plain),
        "anchors": len(anchored),
        "plain_log_sd": log_sd(plain),
        "plain_rel_half_width": plain_interval.relative_half_width,
        "plain_holds_1": holds_1(plain_interval),
    }
    if anchored:
        spreads = [log_sd(a) for a in anchored]
        middle = sorted(range(len(spreads)), key=spreads.__getitem__)[len(spreads) // 2]
        anchored_interval = ratio_interval(anchored[middle])
        row |= {
            "anchored_log_sd": spreads[middle],
            "anchored_rel_half_width": anchored_interval.relative_half_width,
            "anchored_holds_1": holds_1(anchored_interval),
        }
    return row | native


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
    native = native_times(rows)
    names = native_names(native)
    out = []
    for (level, experiment, group), runtimes in _members(rows).items():
        rounds = {
            (rt, b): _by_round(book.replicates(experiment, b, level, rt))
            for rt, benchmarks in runtimes.items()
            for b in benchmarks
        }
        for rt, benchmarks in runtimes.items():
            for b in (b for b in benchmarks if not is_aa_copy(b)):
                out.append(_aa_row(f"{experiment}:{b}@{level}/{rt}", rounds, rt, b, benchmarks, native, names))
        for old, new in itertools.combinations(sorted(runtimes, key=runtime_order), 2):
            shared = [b for b in runtimes[new] if b in runtimes[old]]
            for b in (b for b in shared if not is_aa_copy(b)):
                mine, theirs = rounds[(new, b)], rounds[(old, b)]
                plain = [mine[k].value_ns / theirs[k].value_ns for k in sorted(mine) if k in theirs]
                anchored = []
                for m in (m for m in shared if m != b and m != b + AA_SUFFIX):
                    on_new, on_old = _in_process(mine, rounds[(new, m)]), _in_process(theirs, rounds[(old, m)])
                    anchored.append([on_new[k] / on_old[k] for k in sorted(on_new) if k in on_old])
                through = {name: ratio_of_ratios(mine, theirs, native, name) for name in names}
                label = f"{experiment}:{b}@{level} {new}/{old}"
                out.append(_spread_row(ACROSS, label, plain, anchored, native_columns(plain, through, True)))
            if shared and names:
                out += anchor_rows(
                    f"{experiment}:{group}@{level}",
                    rounds[(new, shared[0])],
                    rounds[(old, shared[0])],
                    native,
                    names,
                    f"{new}/{old}",
                )
    return pd.DataFrame([r for r in out if r is not None])


def _aa_row(
    label: str, rounds: dict, runtime: str, benchmark: str, members: list[str], native: dict, names: list[str]
) -> dict | None:
    """The benchmark's odd rounds over its even rounds on one runtime, plain and anchored on each co-member and on
    each native anchor."""
    mine = rounds[(runtime, benchmark)]
    keys = sorted(mine)
    pairs = list(zip(keys[0::2], keys[1::2]))
    plain = [mine[a].value_ns / mine[b].value_ns for a, b in pairs]
    anchored = []
    for m in (m for m in members if m != benchmark and m != benchmark + AA_SUFFIX):
        inside = _in_process(mine, rounds[(runtime, m)])
        anchored.append([inside[a] / inside[b] for a, b in pairs if a in inside and b in inside])
    through = {}
    for name in names:
        inside_native = through_native(mine, native, name)
        through[name] = [
            inside_native[a][1] / inside_native[b][1] for a, b in pairs if a in inside_native and b in inside_native
        ]
    return _spread_row(AA, label, plain, anchored, native_columns(plain, through, False))


def _anchors_of(spreads: pd.DataFrame) -> list[tuple[str, str]]:
    """(label, column prefix) of each anchor the table has: the co-members, then each native anchor."""
    natives = sorted(c[: -len("_log_sd")] for c in spreads.columns if c.startswith("native_") and c.endswith("_log_sd"))
    return [("co-member", "anchored")] + [(n.replace("native_", "native ", 1), n) for n in natives]


def anchor_summary(spreads: pd.DataFrame) -> pd.DataFrame:
    """One row per kind of ratio and anchor: medians over the ratios that anchor reads, and how many intervals hold 1
    (plain over the same ratios). The native anchors' own ratios across runtimes have no anchor ("itself")."""
    if spreads.empty:
        return spreads
    out = []
    for kind, g in spreads.groupby("kind", sort=False):
        anchors: list[tuple[str, str | None]] = (
            [("itself", None)] if kind == NATIVE_ACROSS else list(_anchors_of(spreads))
        )
        for label, prefix in anchors:
            read = g if prefix is None else g[g[f"{prefix}_log_sd"].notna()] if f"{prefix}_log_sd" in g else g.iloc[:0]
            if read.empty:
                continue
            out.append(
                {
                    "kind": kind,
                    "anchor": label,
                    "ratios": len(read),
                    "pairs": read["pairs"].median(),
                    "plain_log_sd": read["plain_log_sd"].median(),
                    "anchored_log_sd": read[f"{prefix}_log_sd"].median() if prefix else math.nan,
                    "plain_rel_half_width": read["plain_rel_half_width"].median(),
                    "anchored_rel_half_width": read[f"{prefix}_rel_half_width"].median() if prefix else math.nan,
                    "plain_holds_1": int(read["plain_holds_1"].eq(True).sum()),
                    "anchored_holds_1": int(read[f"{prefix}_holds_1"].eq(True).sum()) if prefix else None,
                }
            )
    return pd.DataFrame(out)


def _percent(value: float) -> str:
    return "—" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{100 * value:.1f}%"


def anchor_markdown(run: RunData, summary: pd.DataFrame) -> str:
    """The summary table with its reading."""
    headers = [
        "Ratios",
        "Anchor",
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
            r.anchor,
            r.ratios,
            f"{r.pairs:.0f}",
            _percent(r.plain_log_sd),
            _percent(r.anchored_log_sd),
            format_rel_ci(r.plain_rel_half_width),
            format_rel_ci(r.anchored_rel_half_width) if r.anchor != "itself" else "—",
            f"{r.plain_holds_1} / {int(r.anchored_holds_1) if r.anchor != 'itself' else '—'} of {r.ratios}",
        ]
        for r in summary.itertuples()
    ]
    return (
        f"# What an in-process anchor could buy ratios across runtimes (run {run.run.run_id})\n\n"
        "Each ratio across runtimes pairs two processes of one round; 'anchored' divides each side by an anchor timed "
        "in the same process. A co-member anchor is another member of the benchmark's group (the median spread over "
        "the co-members): what an anchor with that member's sensitivity to the machine would leave; it is not "
        "runtime-independent, so only its spread is compared. A native anchor (job setting native_anchors) is the "
        "same machine code on every runtime, so its ratio of ratios estimates the ratio across runtimes (anchors.csv "
        "gives each estimate beside the plain one); its own ratio across runtimes ('itself') should hold 1. The A/A "
        "rows pair a benchmark's odd rounds with its even rounds on one runtime: only the process differs, so every "
        "interval should hold 1 (a 99% interval misses it about once in a hundred).\n\n" + markdown_table(headers, rows)
    )


def write_anchors(run: RunData, out: pathlib.Path) -> pathlib.Path:
    """anchors.md and anchors.csv (one row per ratio) in `out`; returns the markdown's path."""
    spreads = anchor_spreads(run)
    out.mkdir(parents=True, exist_ok=True)
    spreads.to_csv(out / "anchors.csv", index=False)
    path = out / "anchors.md"
    path.write_text(anchor_markdown(run, anchor_summary(spreads)), encoding="utf-8")
    return path
