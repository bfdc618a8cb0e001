"""What normalizing one finished process yields, before it becomes a row: its statistics, the lab's verification, the
cell's descriptive fields, and the process's resource usage (wall and CPU time, context switches, steal)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TypedDict

from harness.model.arch import IsaFlags
from harness.model.folder.records import VERIFICATION_STATUSES, require_field
from harness.model.json_value import JsonObject
from harness.model.places import SettingsReadback

#: Peak-RSS readings in a cell's raw folder (RssReadings), one per fresh `once --report-rss` process (cold cells, and
#: steady cells of a profile with peak_rss_runs).
RSS_FILE = "rss.json"


class RssReadings(TypedDict, total=False):
    """RSS_FILE as the harness writes it (harness/backends/cold_timing.py read_peak_rss): each process's peak resident
    set in bytes, and the CPUs it was allowed on as it read them back (null where it did not say)."""

    peak_rss_bytes: list[int]
    cpus_allowed: list[str | None]


@dataclass(frozen=True)
class Statistics:
    """Per-operation timing statistics of one cell, in nanoseconds."""

    n: int
    mean_ns: float
    median_ns: float
    stddev_ns: float | None
    ci99_lower_ns: float | None
    ci99_upper_ns: float | None
    min_ns: float
    max_ns: float

    def __post_init__(self) -> None:
        for name in ("mean_ns", "median_ns", "stddev_ns", "ci99_lower_ns", "ci99_upper_ns", "min_ns", "max_ns"):
            value = getattr(self, name)
            require_field(
                value is None
                or (
                    isinstance(value, (int, float))
                    and math.isfinite(value)
                    and (value >= 0 or name == "ci99_lower_ns")  # a wide interval of a tiny time may reach below 0
                ),
                "Statistics",
                name,
                value,
                "the lab reported no finite, non-negative time",
            )
        require_field(self.n > 0, "Statistics", "n", self.n, "needs at least one measurement")
        require_field(self.mean_ns > 0, "Statistics", "mean_ns", self.mean_ns, "must be positive")
        require_field(
            self.min_ns <= self.median_ns <= self.max_ns,
            "Statistics",
            "median_ns",
            self.median_ns,
            "must lie between min and max",
        )
        if self.ci99_lower_ns is not None and self.ci99_upper_ns is not None:
            require_field(
                self.ci99_lower_ns <= self.mean_ns <= self.ci99_upper_ns,
                "Statistics",
                "ci99",
                (self.ci99_lower_ns, self.ci99_upper_ns),
                "must contain the mean",
            )

    @property
    def ci99_half_width_ns(self) -> float | None:
        """Half the 99% confidence interval, or None when it is unknown (n < 2)."""
        if self.ci99_lower_ns is None or self.ci99_upper_ns is None:
            return None
        return (self.ci99_upper_ns - self.ci99_lower_ns) / 2


@dataclass(frozen=True)
class Verification:
    """The lab's verdict on whether a variant really reproduced the dataset."""

    status: str
    message: str
    mismatch_count: int | None = None
    round_trip: str | None = None

    def __post_init__(self) -> None:
        require_field(
            self.status in VERIFICATION_STATUSES,
            "Verification",
            "status",
            self.status,
            f"must be one of {VERIFICATION_STATUSES}",
        )


@dataclass(frozen=True)
class CellOutcome:
    """What normalizing a finished cell yields: descriptive fields, statistics, memory, verification."""

    fields: JsonObject  # a result row's fields by name (ResultRow), as the raw output gave them
    statistics: Statistics
    verification: Verification
    isa_flags: IsaFlags
    # what the measured process reports of its run settings (the `settings` object of its env.json)
    settings_readback: SettingsReadback = field(default_factory=dict)


@dataclass(frozen=True)
class ProcessUsage:
    """What the measured process and its CPU did besides the benchmark: read from wait4's rusage and /proc/stat."""

    wall_s: float
    lab_cpu_s: float | None = None
    cpu_other_ms: float | None = None
    steal_ms: float | None = None
    involuntary_context_switches: int | None = None
    # a handed-over process (harness/backends/handover.py): from its launch on the warm CPU to its warm line, as the
    # harness saw it (the container's exec and the runtime's start included); None for any other process
    warm_line_s: float | None = None
    warm_cpu_s: float | None = None  # and the CPU time it had used by then (its warm line's cpu-ms)
    # of that warm-up, the time on the lab's CPU: moved there before it was warm (the job's warm_on_lab_cpu), from its
    # move to its warm line (inside its wall time); 0 for a process handed over warm
    lab_warm_s: float | None = None

    def fields(self) -> JsonObject:
        """The row fields this usage fills."""
        return {
            "lab_cpu_s": self.lab_cpu_s,
            "cpu_other_ms": self.cpu_other_ms,
            "steal_ms": self.steal_ms,
            "involuntary_context_switches": self.involuntary_context_switches,
            "warm_line_ms": None if self.warm_line_s is None else round(1000 * self.warm_line_s, 1),
            "warm_cpu_ms": None if self.warm_cpu_s is None else round(1000 * self.warm_cpu_s, 1),
            "lab_warm_ms": None if self.lab_warm_s is None else round(1000 * self.lab_warm_s, 1),
        }

    def share(self, parts: int) -> ProcessUsage:
        """One of `parts` equal shares of a process measured for several cells (so sums over rows count it once)."""

        def split(value: float | None) -> float | None:
            return None if value is None else value / parts

        ics = self.involuntary_context_switches
        return ProcessUsage(
            self.wall_s / parts,
            split(self.lab_cpu_s),
            split(self.cpu_other_ms),
            split(self.steal_ms),
            None if ics is None else round(ics / parts),
            split(self.warm_line_s),
            split(self.warm_cpu_s),
            split(self.lab_warm_s),
        )
