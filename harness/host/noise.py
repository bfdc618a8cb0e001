"""What else the measured CPU did while a cell ran: per-CPU counters from /proc/stat and the child's rusage.

`cpu_other_ms` is the pinned CPU's busy time minus the measured process's own CPU time: a
competing process, an interrupt storm or the harness itself. `steal_ms` is time the hypervisor
gave the virtual CPU to another guest. Both are in milliseconds of the cell's wall time; /proc/stat
counts in USER_HZ ticks (10 ms here), so a few tens of milliseconds are within its resolution.
"""

from __future__ import annotations

import os
import re
import resource
from dataclasses import dataclass

from harness.model.outcomes import ProcessUsage

#: /proc/stat per-CPU columns after the name: user nice system idle iowait irq softirq steal guest guest_nice.
_BUSY_COLUMNS = (0, 1, 2, 5, 6)
_STEAL_COLUMN = 7


@dataclass(frozen=True)
class CpuTimes:
    """Busy and stolen milliseconds of a set of CPUs since boot."""

    busy_ms: float
    steal_ms: float


def read_cpu_times(cpus: tuple[int, ...], stat_text: str | None = None) -> CpuTimes | None:
    """Sums the counters of `cpus` from /proc/stat (None where the file cannot be read)."""
    if stat_text is None:
        try:
            with open("/proc/stat") as f:
                stat_text = f.read()
        except OSError:
            return None
    tick_ms = 1000.0 / os.sysconf("SC_CLK_TCK")
    wanted = {f"cpu{c}" for c in cpus}
    busy = steal = 0
    found = 0
    for line in stat_text.splitlines():
        name, _, rest = line.partition(" ")
        if name in wanted:
            values = [int(v) for v in rest.split()]
            busy += sum(values[i] for i in _BUSY_COLUMNS)
            steal += values[_STEAL_COLUMN] if len(values) > _STEAL_COLUMN else 0
            found += 1
    if found != len(wanted):
        return None
    return CpuTimes(busy * tick_ms, steal * tick_ms)


def process_usage(
    wall_s: float,
    lab_cpu_s: float | None,
    before: CpuTimes | None,
    after: CpuTimes | None,
    involuntary_switches: int | None = None,
    warm_line_s: float | None = None,
    warm_cpu_s: float | None = None,
    lab_warm_s: float | None = None,
) -> ProcessUsage:
    """The usage record of one finished process: `lab_cpu_s` is the lab's own CPU time (user + system, children
    included), None where it cannot be known."""
    other = steal = None
    if before is not None and after is not None:
        steal = round(after.steal_ms - before.steal_ms, 1)
        if lab_cpu_s is not None:
            other = round(max(0.0, after.busy_ms - before.busy_ms - 1000 * lab_cpu_s), 1)
    return ProcessUsage(
        round(wall_s, 3),
        None if lab_cpu_s is None else round(lab_cpu_s, 3),
        other,
        steal,
        involuntary_switches,
        None if warm_line_s is None else round(warm_line_s, 3),
        None if warm_cpu_s is None else round(warm_cpu_s, 3),
        None if lab_warm_s is None else round(lab_warm_s, 3),
    )


def rusage_cpu_s(rusage: resource.struct_rusage) -> float:
    """User + system seconds of a reaped child."""
    return rusage.ru_utime + rusage.ru_stime


def parse_shell_times(text: str) -> float | None:
    """User + system seconds of a shell's children from the POSIX `times` builtin's output (second line,
    e.g. `0m1.230000s 0m0.040000s`); None when the text is not that."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) != 2:
        return None
    found = re.findall(r"(\d+)m(\d+(?:\.\d+)?)s", lines[1])
    if len(found) != 2:
        return None
    return sum(60 * int(minutes) + float(seconds) for minutes, seconds in found)
