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


def disturbance(row) -> float | None:
    """The share of a measured row's wall time that went elsewhere when above INTERFERENCE_THRESHOLD, else None."""
    share = interference_share(row)
    return share if share is not None and share > INTERFERENCE_THRESHOLD else None


def disturbed_text(share: float) -> str:
    """'disturbed: 50% of its CPU time went elsewhere'."""
    return f"disturbed: {100 * share:.0f}% of its CPU time went elsewhere"
