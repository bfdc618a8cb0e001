"""CPU pinning: which CPUs the lab process and the harness may use, and the taskset prefix."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass

from harness.model.cpusets import format_cpuset, parse_cpuset
from harness.model.errors import MissingToolError, PinningError


@dataclass(frozen=True)
class CpuPlan:
    """CPUs for the measured lab processes, and for the harness itself (None: leave it unpinned)."""

    lab: tuple[int, ...]
    harness: tuple[int, ...] | None

    @property
    def lab_cpuset(self) -> str:
        """The lab CPU set in taskset syntax."""
        return format_cpuset(self.lab)


def plan_cpus(
    lab: str | None,
    harness: str | None,
    allowed: set[int] | None = None,
    lab_count: int = 1,
    reserved: Iterable[int] = (),
) -> CpuPlan:
    """Default: the lab on the highest allowed CPU(s), the harness on the lowest CPU left (when one is left;
    a duet on a 2-CPU machine takes both, and the harness, which only waits, floats). `reserved`: CPUs the kernel
    set aside for benchmarks (isolated); when enough of them are allowed the lab takes the highest of them, and
    the harness takes the lowest CPU left outside them."""
    allowed = allowed if allowed is not None else os.sched_getaffinity(0)
    reserved = set(reserved)
    if len(allowed) < lab_count and not lab:
        raise PinningError(
            f"the design needs {lab_count} lab CPUs, this process may use {len(allowed)}",
            "choose a one-CPU design (--design interleaved) or run on a machine with more CPUs",
        )
    candidates = sorted(allowed & reserved) if len(allowed & reserved) >= lab_count else sorted(allowed)
    lab_cpus = parse_cpuset(lab) if lab else tuple(candidates[-lab_count:])
    if len(lab_cpus) < lab_count:
        raise PinningError(
            f"the design needs {lab_count} lab CPUs, --cpuset {lab} names {len(lab_cpus)}",
            f"pass --cpuset with {lab_count} CPUs, e.g. 0,1",
        )
    if harness:
        harness_cpus: tuple[int, ...] | None = parse_cpuset(harness)
    else:
        rest = sorted(allowed - set(lab_cpus))
        outside = [cpu for cpu in rest if cpu not in reserved]
        harness_cpus = ((outside or rest)[0],) if rest else None
    for name, cpus in (("lab", lab_cpus), ("harness", harness_cpus or ())):
        bad = sorted(set(cpus) - allowed)
        if bad:
            raise PinningError(
                f"{name} CPU set includes {format_cpuset(tuple(bad))}, which this process may not use",
                f"this machine allows CPUs {format_cpuset(tuple(sorted(allowed)))}",
            )
    return CpuPlan(lab_cpus, harness_cpus)


def taskset_prefix(cpuset: str) -> list[str]:
    """The command prefix that pins a child process to `cpuset`."""
    if shutil.which("taskset") is None:
        raise MissingToolError(
            "'taskset' is not on PATH, so cells cannot be pinned", "install util-linux (apt-get install util-linux)"
        )
    return ["taskset", "-c", cpuset]


def move_process(prefix: list[str], pid: int, cpuset: str) -> None:
    """Moves every thread of process `pid` onto `cpuset` with `taskset -a -p`, run after `prefix` (empty: here; `docker
    exec NAME`: inside a container, where `pid` is the container's own id of it)."""
    argv = [*prefix, "taskset", "-a", "-p", "-c", cpuset, str(pid)]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        done = subprocess.CompletedProcess(argv, 1, "", str(e))
    if done.returncode != 0:
        raise PinningError(
            f"could not move process {pid} to CPU {cpuset}: {(done.stderr or done.stdout).strip() or 'no output'}",
            "the pipelined design moves its processes with taskset -a -p (util-linux), as root or their owner; "
            "choose --design paired where it cannot",
        )


def pin_current_process(cpus: tuple[int, ...] | None) -> None:
    """Moves the harness off the lab's CPUs, so its own work does not disturb measurements."""
    if cpus:
        os.sched_setaffinity(0, set(cpus))
