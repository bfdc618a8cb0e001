"""Progress of a run: one line per finished cell, plus a live bar when attached to a terminal."""

from __future__ import annotations

import sys
from typing import TextIO

from harness.model.cells import Cell
from harness.model.folder.records import COLD, MEASURED, ResultRow
from harness.model.stats.interference import disturbance, disturbed_text

try:  # rich is optional: without it (or without a terminal) only the per-cell lines are printed
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    _rich_progress: type[Progress] | None = Progress
except ImportError:  # pragma: no cover - depends on the host
    _rich_progress = None


def describe_row(row: ResultRow) -> str:
    """'ok 912.3 ns ±1.2%' / 'unverified …' / 'failed: reason' for one finished cell."""
    if row.status in MEASURED and row.mean_ns is not None and row.measure == COLD:
        spread = (
            f" ±{100 * row.ci99_half_width_ns / row.mean_ns:.1f}% over {row.n} processes"
            if row.ci99_half_width_ns
            else ""
        )
        rss_mib = (row.peak_rss_bytes or 0) / (1 << 20)
        assert row.median_ns is not None  # set with mean_ns: both come from the cell's Statistics
        return f"{row.status} {row.median_ns / 1e6:,.1f} ms whole process{spread}, peak RSS {rss_mib:,.0f} MiB"
    if row.status in MEASURED and row.mean_ns is not None:
        spread = (
            f" (within-process ±{100 * row.ci99_half_width_ns / row.mean_ns:.1f}%)" if row.ci99_half_width_ns else ""
        )
        share = disturbance(row)
        disturbed = f" ⚠ {disturbed_text(share)}" if share is not None else ""
        return f"{row.status} {row.mean_ns:,.1f} ns{spread}{disturbed}"
    return f"{row.status}: {row.error}"


class RunProgress:
    """Reports cells as they start and finish."""

    def __init__(self, already_done: int, stream: TextIO | None = None) -> None:
        # The number of processes is open when groups stop adaptively: the count and elapsed time are shown, not a
        # total.
        stream = stream or sys.stderr
        self._stream = stream
        self._count = already_done
        self._bar = None
        if _rich_progress is not None and stream.isatty():
            self._bar = _rich_progress(
                TextColumn("{task.description}"),
                BarColumn(),
                TextColumn("{task.completed} processes"),
                TimeElapsedColumn(),
                transient=True,
            )
            self._task = self._bar.add_task("cells", total=None, completed=already_done)
            self._bar.start()

    def started(self, cell: Cell) -> None:
        """A cell is about to run."""
        if self._bar is not None:
            self._bar.update(self._task, description=cell.cell_id)

    def finished(self, row: ResultRow) -> None:
        """A process's row has been stored."""
        self._count += 1
        duration = f" ({row.duration_s:.1f} s)" if row.duration_s is not None else ""
        round_note = f" round {row.round_index}" + (f" beside {row.partner}" if row.partner else "")
        line = f"[{self._count:>4}] {row.cell_id}{round_note}: {describe_row(row)}{duration}"
        if self._bar is not None:
            self._bar.console.print(line, highlight=False)
            self._bar.update(self._task, completed=self._count)
        else:
            print(line, file=self._stream, flush=True)

    def note(self, message: str) -> None:
        """A line that is not about one cell."""
        if self._bar is not None:
            self._bar.console.print(message, highlight=False)
        else:
            print(message, file=self._stream, flush=True)

    def close(self) -> None:
        """Stops the live bar."""
        if self._bar is not None:
            self._bar.stop()
