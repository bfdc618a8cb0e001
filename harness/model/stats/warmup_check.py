"""Processes whose warm-up ended before their code tiered up, found from their JIT counts and set aside.

The lab ends a warm-up once the JIT has been quiet for a while after tiering's call-counting delay. Now and then a
process
looks quiet too early: in the rounds probe of 2026-11-24 (profile `rounds`), 2 of 12 processes of one 10-cell group
ended
their joint warm-up after 723 and 857 ms with 303 and 511 compilations, where the other ten took 2.2-3.1 s and
1,283-1,293;
their first rounds ran at tier-0 speed (one process stayed 1.8x slow throughout), and their ratios were off by up to
30%.
A healthy warm-up of one process compiles about as many methods as any other process of the same cells and takes about
as long, so a process whose count and warm-up time are both far below its siblings' medians did not finish warming (a
count alone is not enough: a process of write-up 003's 4.9 MB deserialization warmed for a normal 4.0 s with 884
compilations against a median of 1,251): its rows are set aside (kept in results.jsonl,
left out of every ratio, mean and stopping decision) and named in the report. The stopping rule then runs the group on,
as if that process had failed. Where the runtime cannot count compilations (.NET Core 3.1) or nothing tiers up (Native
AOT: counts of zero), nothing is set aside.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from harness.model.defaults import SHORT_WARMUP_FRACTION
from harness.model.stats.pairing import process_of

#: Processes of a cell needed before its median means anything.
MIN_PROCESSES = 3


def _count(row: Any) -> int | None:
    value = getattr(row, "prewarm_compilations", None)
    if value is None or value != value:  # None, or NaN in a pandas frame
        return None
    return int(value)


def _warmup_ms(row: Any) -> float | None:
    value = getattr(row, "prewarm_ms", None)
    if value is None or value != value:
        return None
    return float(value)


def row_id(row: Any) -> tuple[str, int, str | None]:
    """A row's identity (cell, round, duet partner), for dataclass rows and pandas tuples alike."""
    partner = getattr(row, "partner", None)
    return row.cell_id, int(row.round_index), partner if isinstance(partner, str) else None


def short_warmups(
    rows: Iterable[Any], fraction: float = SHORT_WARMUP_FRACTION
) -> dict[tuple[str, int, str | None], str]:
    """The rows to set aside, each with the reason: a warm-up that compiled fewer than `fraction` of the median count
    over
    the processes of the same cell (same experiment, group, ISA level and runtime). In a paired process every member
    shares the joint warm-up, so one member found short sets the whole process aside."""
    by_cell: dict[tuple, list[Any]] = defaultdict(list)
    for row in rows:
        if _count(row) is not None:
            by_cell[(row.isa_requested, row.experiment, row.group, row.runtime_requested, row.benchmark)].append(row)
    short: dict[tuple[str, int, str | None], str] = {}
    short_processes: dict[str, str] = {}
    members: dict[str, list[Any]] = defaultdict(list)
    for cell_rows in by_cell.values():
        for row in cell_rows:
            process = process_of(row)
            if process:
                members[process].append(row)
        if len(cell_rows) < MIN_PROCESSES:
            continue
        counts = [c for c in (_count(r) for r in cell_rows) if c is not None]  # all of them: by_cell holds counted rows
        median = statistics.median(counts)
        times = [t for t in (_warmup_ms(r) for r in cell_rows) if t is not None]
        median_ms = statistics.median(times) if len(times) >= MIN_PROCESSES else None
        for row in cell_rows:
            count, ms = _count(row), _warmup_ms(row)
            assert count is not None  # by_cell holds only rows with a count
            # short in both: a process that warmed as long as its siblings but compiled less (a big payload's process
            # whose code took other paths) finished its warm-up; one that stopped early with little compiled did not
            if count < fraction * median and (median_ms is None or ms is None or ms < fraction * median_ms):
                reason = (
                    f"warm-up cut short: it ended after {count:,} JIT compilations"
                    + ("" if ms is None or median_ms is None else f" and {ms:,.0f} ms")
                    + f", against a median of {median:,.0f}"
                    + ("" if median_ms is None else f" and {median_ms:,.0f} ms")
                    + " over this cell's processes (its code had not finished tiering up)"
                )
                short[row_id(row)] = reason
                process = process_of(row)
                if process:
                    short_processes[process] = reason
    for process, reason in short_processes.items():
        for row in members[process]:
            short.setdefault(row_id(row), reason)
    return short


def usable(rows: list[Any], fraction: float = SHORT_WARMUP_FRACTION) -> list[Any]:
    """The rows without those short_warmups() sets aside."""
    short = short_warmups(rows, fraction)
    return [r for r in rows if row_id(r) not in short]
