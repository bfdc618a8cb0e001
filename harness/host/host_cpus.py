"""What the host says about its CPUs, read from /sys and /proc: the CPU lists (online, isolated, nohz_full, the cgroup's
cpuset, this process's affinity), each CPU's governor, SMT siblings and turbo. Read once; cpu_hygiene.py judges them."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

#: Flags `isolcpus=` may carry before its CPU list (kernel-parameters.txt).
ISOLCPUS_FLAGS = ("nohz", "domain", "managed_irq")


#: Where sysfs keeps the CPU files, below sys_root; fix commands always name the real path.
CPU_DIR = "devices/system/cpu"


def parse_cpulist(text: str) -> tuple[int, ...]:
    """Kernel cpulist syntax → sorted CPUs: '' → (), '2-3,6' → (2, 3, 6), '0-7:2/4' → (0, 1, 4, 5) (2 used of every 4);
    raises ValueError on anything else."""
    cpus: set[int] = set()
    for part in text.strip().split(","):
        part = part.strip()
        if not part:
            continue
        span, _, stride = part.partition(":")
        lo, _, hi = span.partition("-")
        first, last = int(lo), int(hi or lo)
        used, group = (int(n) for n in stride.split("/")) if stride else (1, 1)
        if last < first or used < 1 or group < used:
            raise ValueError(f"bad CPU range '{part}'")
        cpus.update(c for c in range(first, last + 1) if (c - first) % group < used)
    return tuple(sorted(cpus))


def _read(path: str) -> str | None:
    """A sysfs/procfs file stripped, or None when the host does not expose it."""
    try:
        with open(path, encoding="ascii", errors="replace") as f:
            return f.read().strip()
    except OSError:
        return None


def _read_cpulist(path: str) -> tuple[int, ...] | None:
    """A cpulist file, or None when it is missing or unreadable; the kernel writes '(null)' for an unset mask."""
    text = _read(path)
    if text is None:
        return None
    try:
        return () if text == "(null)" else parse_cpulist(text)
    except ValueError:
        return None


def cmdline_cpulist(cmdline: str, parameter: str) -> tuple[int, ...] | None:
    """The CPUs of a kernel parameter ('isolcpus', 'nohz_full') on the command line, None when it is absent or
    unreadable; isolcpus's leading flags (nohz,domain,managed_irq) are skipped."""
    value = None
    for word in cmdline.split():
        name, sep, rest = word.partition("=")
        if sep and name == parameter:
            value = rest  # the last one wins, as in the kernel
    if value is None:
        return None
    items = value.split(",")
    while items and items[0] in ISOLCPUS_FLAGS:
        items.pop(0)
    try:
        return parse_cpulist(",".join(items))
    except ValueError:
        return None


def cgroup_cpuset(sys_root: str = "/sys", proc_root: str = "/proc") -> tuple[int, ...] | None:
    """The CPUs this process's cgroup lets it move to (cgroup v2 cpuset.cpus.effective of its cgroup or the nearest
    parent that has one; v1 cpuset.effective_cpus), None when neither can be read."""
    for line in (_read(f"{proc_root}/self/cgroup") or "").splitlines():
        hierarchy, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        if hierarchy == "0" and controllers == "":
            parts = [p for p in path.split("/") if p]
            for depth in range(len(parts), -1, -1):
                found = _read_cpulist("/".join([f"{sys_root}/fs/cgroup", *parts[:depth], "cpuset.cpus.effective"]))
                if found is not None:
                    return found
        if "cpuset" in controllers.split(","):
            found = _read_cpulist(f"{sys_root}/fs/cgroup/cpuset{path.rstrip('/')}/cpuset.effective_cpus")
            if found is not None:
                return found
    return None


@dataclass(frozen=True)
class HostCpus:
    """What the kernel offers for benchmarking: isolated and tickless CPUs (None: not exposed) and what this process
    may use."""

    isolated: tuple[int, ...] | None
    nohz_full: tuple[int, ...] | None
    affinity: tuple[int, ...]
    cpuset: tuple[int, ...] | None  # the cgroup's CPUs; None: unreadable
    online: tuple[int, ...] | None

    @property
    def reserved(self) -> tuple[int, ...]:
        """The CPUs set aside for benchmarks: the isolated ones, else the nohz_full ones (online ones only)."""
        chosen = self.isolated or self.nohz_full or ()
        return tuple(c for c in chosen if self.online is None or c in self.online)

    @property
    def usable(self) -> set[int]:
        """CPUs a lab process may be pinned to: this process's affinity, plus the reserved CPUs its cgroup allows
        (isolcpus takes the isolated CPUs out of every process's default affinity, not out of its cpuset). An
        unreadable cgroup is taken to allow them, as the root cpuset does."""
        allowed = set(self.affinity)
        return allowed | {c for c in self.reserved if self.cpuset is None or c in self.cpuset}


def read_host_cpus(sys_root: str = "/sys", proc_root: str = "/proc", affinity: Iterable[int] | None = None) -> HostCpus:
    """Isolated and nohz_full CPUs (sysfs, else the kernel command line), this process's affinity and cgroup cpuset."""
    cmdline = _read(f"{proc_root}/cmdline") or ""
    isolated = _read_cpulist(f"{sys_root}/{CPU_DIR}/isolated")
    nohz_full = _read_cpulist(f"{sys_root}/{CPU_DIR}/nohz_full")
    return HostCpus(
        isolated=isolated if isolated is not None else cmdline_cpulist(cmdline, "isolcpus"),
        nohz_full=nohz_full if nohz_full is not None else cmdline_cpulist(cmdline, "nohz_full"),
        affinity=tuple(sorted(affinity if affinity is not None else os.sched_getaffinity(0))),
        cpuset=cgroup_cpuset(sys_root, proc_root),
        online=_read_cpulist(f"{sys_root}/{CPU_DIR}/online"),
    )


@dataclass(frozen=True)
class CpuState:
    """What one lab CPU's sysfs says (None: not exposed)."""

    cpu: int
    governor: str | None
    frequency_driver: str | None
    smt_siblings: tuple[int, ...] | None  # the other hardware threads of its core
    smt_siblings_online: tuple[int, ...]
    isolated: bool
    nohz_full: bool | None


def read_cpu_state(cpu: int, host: HostCpus, sys_root: str = "/sys") -> CpuState:
    """Governor, frequency driver and SMT siblings of one CPU; a sibling without an 'online' file (cpu0) counts as
    online."""
    base = f"{sys_root}/{CPU_DIR}/cpu{cpu}"
    siblings = _read_cpulist(f"{base}/topology/thread_siblings_list")
    others = None if siblings is None else tuple(s for s in siblings if s != cpu)
    online = tuple(s for s in others or () if _read(f"{sys_root}/{CPU_DIR}/cpu{s}/online") != "0")
    return CpuState(
        cpu,
        _read(f"{base}/cpufreq/scaling_governor"),
        _read(f"{base}/cpufreq/scaling_driver"),
        others,
        online,
        cpu in (host.isolated or ()),
        None if host.nohz_full is None else cpu in host.nohz_full,
    )


def read_turbo(sys_root: str = "/sys") -> tuple[bool | None, str | None]:
    """(turbo on?, the switch that says so): intel_pstate's no_turbo, else cpufreq's boost; (None, None) when neither
    is exposed."""
    no_turbo = _read(f"{sys_root}/{CPU_DIR}/intel_pstate/no_turbo")
    if no_turbo is not None:
        return no_turbo == "0", f"/sys/{CPU_DIR}/intel_pstate/no_turbo"
    boost = _read(f"{sys_root}/{CPU_DIR}/cpufreq/boost")
    if boost is not None:
        return boost == "1", f"/sys/{CPU_DIR}/cpufreq/boost"
    return None, None
