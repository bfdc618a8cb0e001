"""What every normalizer needs: reading a lab's JSON files with errors that say what to do (`read_json`, which is
harness/model/folder/lab_files.py's reader), and the statistics of a list of per-operation times (iterations of one
process, or whole processes)."""

from __future__ import annotations

import pathlib
import statistics

from harness.model.folder.lab_files import read_lab_json as read_json
from harness.model.outcomes import RSS_FILE, Statistics
from harness.model.stats.stats import mean_interval


def statistics_from_times(times_ns: list[float]) -> Statistics:
    """Statistics of per-operation times, with a Student-t 99% interval of their mean."""
    interval = mean_interval(times_ns)
    return Statistics(
        n=len(times_ns),
        mean_ns=statistics.fmean(times_ns),
        median_ns=statistics.median(times_ns),
        stddev_ns=statistics.stdev(times_ns) if len(times_ns) > 1 else None,
        ci99_lower_ns=interval.lower if len(times_ns) > 1 else None,
        ci99_upper_ns=interval.upper if len(times_ns) > 1 else None,
        min_ns=min(times_ns),
        max_ns=max(times_ns),
    )


def peak_rss_bytes(cell_dir: pathlib.Path) -> int | None:
    """The median of the peak-RSS readings a cell's folder holds (RSS_FILE), or None when it holds none."""
    path = cell_dir / RSS_FILE
    if not path.exists():
        return None
    readings = read_json(path).get("peak_rss_bytes") or []
    return int(statistics.median(readings)) if readings else None
