"""What the lab's CPU waits when the paired-pipelined design's next process is not the one warmed ahead: a whole
warm-up, from launch to warm line (harness/backends/handover.py). The run's sharing rule (harness/model/stats/
allocation.py) charges it once to every unit but the one warming, so a near tie goes to the process that is ready.

Read from this session's handed-over processes (their rows' `warm_line_ms`, a share per cell, summed per process), the
median of the latest ones; before the first, from the newest earlier run of the same design and job (its
ProcessCosts.warm_s); 0 without either (a design that does not pipeline: nothing is ever warmed ahead)."""

from __future__ import annotations

import statistics
from collections import OrderedDict

from harness.model.folder.records import ResultRow

#: The latest processes the median is taken over: the warm-up's cost drifts with what the run is doing.
RECENT_PROCESSES = 25


class WarmSwitch:
    """The running cost of a warm-up the lab's CPU would wait for."""

    def __init__(self, earlier_s: float | None = None) -> None:
        self.earlier_s = earlier_s
        self._processes: OrderedDict[str, float] = OrderedDict()  # process (its log) -> seconds to its warm line

    def add(self, row: ResultRow) -> None:
        """Counts a stored row's share of its process's warm-up (rows of other processes are left out)."""
        if row.warm_line_ms is None or not row.log_path:
            return
        key = str(row.log_path)
        self._processes[key] = self._processes.get(key, 0.0) + row.warm_line_ms / 1000
        self._processes.move_to_end(key)
        while len(self._processes) > RECENT_PROCESSES:
            self._processes.popitem(last=False)

    def seconds(self) -> float:
        """The median warm-up of the latest processes, else the earlier run's, else 0."""
        if self._processes:
            return statistics.median(self._processes.values())
        return self.earlier_s or 0.0
