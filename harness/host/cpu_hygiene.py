"""Bare-metal CPU hygiene: which CPUs the kernel set aside for benchmarking, and what on the lab's CPUs adds noise.

The kernel's isolated CPUs (`isolcpus=`, /sys/devices/system/cpu/isolated; else `nohz_full=`) are the lab's CPUs by
default and the harness stays off them. For each lab CPU (not cpu0) the governor, the turbo/boost switch and the SMT
siblings are read; everything that adds noise becomes a Finding with the exact command that fixes it. Nothing here
changes the system. A file the host does not expose (a VM has no cpufreq) reads as unknown, never as an error.
`sys_root` and `proc_root` are parameters so that tests read fake trees.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import TextIO, cast

from harness.host.host_cpus import CPU_DIR, CpuState, HostCpus, _read, read_cpu_state, read_host_cpus, read_turbo
from harness.model.cpusets import format_cpuset
from harness.model.folder.cpu_state import CpuStateRecord, FindingRecord, HygieneRecord, hygiene_lines
from harness.planning.pinning import CpuPlan, plan_cpus

#: Governors that hold the clock still: performance (highest), userspace (a fixed frequency someone chose).
STEADY_GOVERNORS = ("performance", "userspace")


def plan_host_cpus(lab: str | None, harness: str | None, lab_count: int, host: HostCpus) -> CpuPlan:
    """pinning.plan_cpus on this host: the lab on the highest reserved (isolated) CPUs when there are enough and no
    --cpuset was given, the harness on a CPU that is not reserved; today's choice when nothing is isolated."""
    return plan_cpus(lab, harness, allowed=host.usable, lab_count=lab_count, reserved=host.reserved)


@dataclass(frozen=True)
class Finding:
    """One thing on this host that adds noise to the lab's measurements, why, and the command that fixes it."""

    kind: str  # not-isolated, tick, governor, turbo, smt-sibling, smt-shared
    what: str
    why: str
    fix: str
    cpu: int | None = None
    alternative: str | None = None  # another command that fixes it (when the first needs a tool that may be missing)


def kernel_cmdline_fix(parameters: dict[str, Iterable[int]]) -> str:
    """The command that sets these CPU-list kernel parameters (isolcpus, nohz_full) from the next boot on (Debian GRUB):
    any earlier value of them is removed from /etc/default/grub, the new one put first on GRUB_CMDLINE_LINUX."""
    names = "|".join(parameters)
    values = " ".join(f"{name}={format_cpuset(tuple(sorted(set(cpus))))}" for name, cpus in parameters.items())
    return (
        f"sed -i -E 's/ ?({names})=[^ \"]*//g; s/^GRUB_CMDLINE_LINUX=\"/&{values} /' /etc/default/grub "
        "&& update-grub && reboot"
    )


def isolation_findings(plan: CpuPlan, host: HostCpus) -> list[Finding]:
    """The lab's CPUs outside the isolated set (none isolated, too few, or another --cpuset), and isolated lab CPUs
    that still take the scheduler tick."""
    found = (_not_isolated_finding(plan, host), _tick_finding(plan, host))
    return [finding for finding in found if finding is not None]


def _not_isolated_finding(plan: CpuPlan, host: HostCpus) -> Finding | None:
    """The lab's CPUs outside the isolated set: none isolated, another --cpuset while enough isolated CPUs are usable,
    or too few usable isolated CPUs for the design; None when every lab CPU is isolated."""
    listed = format_cpuset(plan.lab)
    reserved = host.reserved
    usable = sorted(set(reserved) & host.usable)
    outside = tuple(c for c in plan.lab if c not in reserved)
    if outside and not reserved:
        spare = set(host.online or host.affinity) - set(plan.lab)  # the kernel keeps at least one CPU for itself
        fix = (
            kernel_cmdline_fix({"isolcpus": plan.lab, "nohz_full": plan.lab})
            if spare
            else "run on a machine with more CPUs than the lab needs: isolcpus must leave one CPU to the system"
        )
        return Finding(
            "not-isolated",
            f"no CPU is isolated; the lab runs on CPU {listed}",
            "the kernel schedules other processes and interrupts on it, inside the measurements",
            fix,
        )
    if outside and len(usable) >= len(plan.lab):
        return Finding(
            "not-isolated",
            f"lab CPU {format_cpuset(outside)} is not isolated (isolated: {format_cpuset(reserved)})",
            "other processes and interrupts run there, inside the measurements",
            f"just run-all default --cpuset {format_cpuset(tuple(usable[-len(plan.lab):]))}",
        )
    if outside:
        unusable = tuple(sorted(set(reserved) - host.usable))
        reason = f"; this process may not use {format_cpuset(unusable)} (its cgroup cpuset)" if unusable else ""
        wider = (*reserved, *plan.lab)
        fix = (
            f"run the harness where its cgroup allows CPUs {format_cpuset(unusable)} (e.g. not inside a container "
            "limited "
            "to other CPUs)"
            if unusable
            else kernel_cmdline_fix({"isolcpus": wider, "nohz_full": wider})
        )
        return Finding(
            "not-isolated",
            f"lab CPU {format_cpuset(outside)} is not isolated: the design needs {len(plan.lab)} CPUs, "
            f"{len(usable)} isolated one(s) are usable{reason}",
            "other processes and interrupts run there, inside the measurements",
            fix,
        )
    return None


def _tick_finding(plan: CpuPlan, host: HostCpus) -> Finding | None:
    """Isolated lab CPUs that are not nohz_full (when the kernel says which are), so still take the scheduler tick."""
    if host.nohz_full is None:
        return None
    ticking = tuple(c for c in plan.lab if c in (host.isolated or ()) and c not in host.nohz_full)
    if not ticking:
        return None
    return Finding(
        "tick",
        f"isolated lab CPU {format_cpuset(ticking)} is not nohz_full",
        "the scheduler tick still interrupts it every few milliseconds",
        kernel_cmdline_fix({"nohz_full": (*host.nohz_full, *(host.isolated or ()))}),
    )


def governor_findings(states: Iterable[CpuState]) -> list[Finding]:
    """A lab CPU whose governor lets its clock follow the load."""
    return [
        Finding(
            "governor",
            f"CPU {s.cpu}'s governor is '{s.governor}'",
            "its clock follows the load, so the first iterations of every process run slower",
            "cpupower frequency-set -g performance",
            s.cpu,
            f"echo performance | tee /sys/{CPU_DIR}/cpu{s.cpu}/cpufreq/scaling_governor",
        )
        for s in states
        if s.governor is not None and s.governor not in STEADY_GOVERNORS
    ]


def turbo_findings(turbo: bool | None, switch: str | None) -> list[Finding]:
    """Turbo/boost on: the clock depends on temperature and on the other cores' load."""
    if not turbo or switch is None:
        return []
    off = "1" if switch.endswith("no_turbo") else "0"
    return [
        Finding(
            "turbo",
            "turbo/boost is on",
            "the clock rises and falls with temperature and the other cores' load",
            f"echo {off} > {switch}",
        )
    ]


def smt_findings(states: Iterable[CpuState], plan: CpuPlan, sys_root: str = "/sys") -> list[Finding]:
    """An online SMT sibling of a lab CPU (offline it), or two lab CPUs on one core (choose other CPUs)."""
    findings = []
    for s in states:
        for sibling in s.smt_siblings_online:
            if sibling in plan.lab:
                if s.cpu < sibling:
                    findings.append(
                        Finding(
                            "smt-shared",
                            f"lab CPUs {s.cpu} and {sibling} are SMT siblings of one core",
                            "the two lab processes share its caches and execution units",
                            "just run-all default --cpuset A,B with CPUs A and B of different cores "
                            f"(cat /sys/{CPU_DIR}/cpu*/topology/thread_siblings_list)",
                            s.cpu,
                        )
                    )
                continue
            harness = " (the harness runs there)" if sibling in (plan.harness or ()) else ""
            can_go_offline = _read(f"{sys_root}/{CPU_DIR}/cpu{sibling}/online") is not None  # cpu0 often cannot
            findings.append(
                Finding(
                    "smt-sibling",
                    f"CPU {s.cpu}'s SMT sibling {sibling} is online{harness}",
                    "work on the sibling shares the core's caches and execution units with the lab",
                    f"echo 0 > /sys/{CPU_DIR}/cpu{sibling}/online"
                    if can_go_offline
                    else f"echo off > /sys/{CPU_DIR}/smt/control",
                    s.cpu,
                    f"echo off > /sys/{CPU_DIR}/smt/control" if can_go_offline else None,
                )
            )
    return findings


@dataclass(frozen=True)
class CpuHygiene:
    """The lab's CPUs, what their sysfs says, and every finding with its fix."""

    plan: CpuPlan
    host: HostCpus
    cpus: tuple[CpuState, ...]
    turbo: bool | None
    turbo_switch: str | None
    findings: tuple[Finding, ...]

    def to_dict(self) -> HygieneRecord:
        """What environment.json records under 'cpu_hygiene'."""
        return HygieneRecord(
            lab_cpus=list(self.plan.lab),
            harness_cpus=list(self.plan.harness or ()),
            isolated_cpus=None if self.host.isolated is None else list(self.host.isolated),
            nohz_full_cpus=None if self.host.nohz_full is None else list(self.host.nohz_full),
            usable_cpus=sorted(self.host.usable),
            turbo=self.turbo,
            turbo_switch=self.turbo_switch,
            cpus=[cast(CpuStateRecord, asdict(s)) for s in self.cpus],  # the same keys: test_environment_record.py
            findings=[cast(FindingRecord, asdict(f)) for f in self.findings],
        )

    def lines(self) -> list[str]:
        """What the run prints at its start: the CPUs used, each lab CPU's state, each finding with its fix."""
        return hygiene_lines(self.to_dict())

    def announce(self, stream: TextIO | None = None) -> None:
        """Prints lines() where the run's progress goes (stderr), before anything is built or measured."""
        print("\n".join(self.lines()), file=stream or sys.stderr, flush=True)


def check_cpu_hygiene(plan: CpuPlan, host: HostCpus, sys_root: str = "/sys") -> CpuHygiene:
    """Reads the lab CPUs' governor, turbo and SMT state and collects what adds noise."""
    states = tuple(read_cpu_state(cpu, host, sys_root) for cpu in plan.lab)
    turbo, switch = read_turbo(sys_root)
    findings = (
        isolation_findings(plan, host)
        + governor_findings(states)
        + turbo_findings(turbo, switch)
        + smt_findings(states, plan, sys_root)
    )
    return CpuHygiene(plan, host, states, turbo, switch, tuple(findings))


def plan_and_check(
    lab: str | None, harness: str | None, lab_count: int, sys_root: str = "/sys", proc_root: str = "/proc"
) -> tuple[CpuPlan, CpuHygiene]:
    """The run's CPU plan on this host and its hygiene, read once at the start."""
    host = read_host_cpus(sys_root, proc_root)
    plan = plan_host_cpus(lab, harness, lab_count, host)
    return plan, check_cpu_hygiene(plan, host, sys_root)
