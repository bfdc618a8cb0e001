"""How much of a process's wall time went to other work on its CPU, or was stolen by the hypervisor, as read from its
result row (the readings themselves are taken by harness/host/noise.py)."""

from __future__ import annotations

import math

#: Share of a cell's wall time spent on other work or stolen, above which the cell is flagged as disturbed.
INTERFERENCE_THRESHOLD = 0.05


def interference_share(row) -> float | None:
    """(other + stolen) CPU time as a share of a result row's wall time (duration_s); None when unknown."""
    other, wall = row.cpu_other_ms, row.duration_s
    if other is None or wall is None or math.isnan(other) or math.isnan(wall) or wall <= 0:
        return None
    steal = 0.0 if row.steal_ms is None or math.isnan(row.steal_ms) else row.steal_ms
    return (other + steal) / (1000 * wall)


#: How many disturbed processes of one cell a session replaces by fresh ones; past it a disturbed process stays, set
#: aside from the statistics as 'disturbed' with its reason (a cell that keeps being disturbed is not averaged in).
REPLACEMENTS_PER_CELL = 3


#: The CPU times 'other' is computed from (/proc/stat's busy time of the lab CPU before and after, less the lab's own
#: CPU time from wait4 or the shell's `times`) count clock ticks of 10 ms, so a process's 'other' can read up to a few
#: ticks with nothing else running. Measured: in smoke run 2026-11-26T03-22-01Z (processes of 0.14-2.6 s in
#: containers) rows read 5-50 ms per process, mostly 10 ms; a 0.2 s process reading 10 ms looked 5% disturbed. A
#: process is disturbed only when what went elsewhere, less this much, is over the threshold (the default run's 4 s
#: processes: 230 ms instead of 200 ms).
COUNTER_RESOLUTION_MS = 30.0


def disturbance(row) -> float | None:
    """The share of a measured row's wall time that went elsewhere when, less the counters' resolution, it is above
    INTERFERENCE_THRESHOLD; else None. A row of a process of several cells carries its share of the process's 'other'
    and wall time, so the resolution is shared the same way."""
    share = interference_share(row)
    if share is None:
        return None
    cells = getattr(row, "process_cells", None)
    cells = 1 if cells is None or (isinstance(cells, float) and math.isnan(cells)) or cells < 1 else cells
    margin = COUNTER_RESOLUTION_MS / cells / (1000 * row.duration_s)
    return share if share - margin > INTERFERENCE_THRESHOLD else None


def disturbed_text(share: float) -> str:
    """'disturbed: 50% of its CPU time went elsewhere'."""
    return f"disturbed: {100 * share:.0f}% of its CPU time went elsewhere"
