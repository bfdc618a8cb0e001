"""Host environment capture for environment.json: CPU, SMT, frequency policy, kernel, git state, and the lab CPUs'
hygiene (harness/host/cpu_hygiene.py: isolation, governor, turbo, SMT siblings, each finding with its fix).

Each reader returns None for what this host does not expose (a VM often hides the governor).
System checks add warnings with the fix, pyperf-style; they never change the system.
"""

from __future__ import annotations

import datetime as _dt
import os
import pathlib
import platform
import subprocess
from collections.abc import Mapping
from typing import TypedDict

from harness import __version__
from harness.host.cpu_hygiene import plan_and_check
from harness.model.defaults import REPO_ROOT
from harness.model.folder.cpu_state import HygieneRecord
from harness.model.folder.run_folder import SCHEMA_VERSION


def read_text(path: str | pathlib.Path) -> str | None:
    """File contents stripped, or None when it does not exist or cannot be read."""
    try:
        return pathlib.Path(path).read_text().strip()
    except OSError:
        return None


#: /proc/cpuinfo's vendor_id (x86) or CPU implementer (arm64) → the vendor names experiments' hardware entries use.
CPU_VENDORS = {
    "GenuineIntel": "intel",
    "AuthenticAMD": "amd",
    "0x41": "arm",
    "0x61": "apple",
    "0xc0": "ampere",
    "0x48": "hisilicon",
    "0x51": "qualcomm",
}


class CpuInfo(TypedDict):
    """What /proc/cpuinfo says of the CPU (parse_cpuinfo)."""

    cpu_model: str | None
    cpu_vendor: str | None
    cpu_family: int | None
    cpu_model_number: int | None
    cpu_flags: list[str]
    logical_cpus: int
    hypervisor: bool


class SmtState(TypedDict):
    smt_active: bool | None
    cpu0_thread_siblings: str | None


class CoreTypes(TypedDict):
    cpu_hybrid: bool | None


class FrequencyPolicy(TypedDict):
    governor: str | None
    frequency_driver: str | None
    turbo: bool | None
    isolated_cpus: str | None


class GitState(TypedDict):
    git_commit: str | None
    git_dirty: bool | None


def parse_cpuinfo(text: str) -> CpuInfo:
    """Model name, flags, logical CPU count, vendor, family and model number from /proc/cpuinfo text (x86 and arm64
    layouts; on arm64 the model number is the CPU part and there is no family)."""
    blocks = [b for b in text.strip().split("\n\n") if b.strip()]
    first: dict[str, str] = {}
    for line in blocks[0].splitlines() if blocks else []:
        key, _, value = line.partition(":")
        first[key.strip()] = value.strip()
    flags = first.get("flags") or first.get("Features") or ""
    model = first.get("model name") or first.get("Model") or first.get("CPU part")
    vendor = first.get("vendor_id") or first.get("CPU implementer")
    return CpuInfo(
        cpu_model=model,
        cpu_vendor=CPU_VENDORS.get(vendor or "", vendor),
        cpu_family=_number(first.get("cpu family")),
        cpu_model_number=_number(first.get("model") or first.get("CPU part")),
        cpu_flags=sorted(flags.split()),
        logical_cpus=sum(1 for b in blocks if b.lstrip().startswith("processor")),
        hypervisor="hypervisor" in flags.split(),
    )


def _number(text: str | None) -> int | None:
    """A /proc/cpuinfo number, decimal or 0x-hex; None when absent or not a number."""
    try:
        return int(text, 0) if text else None
    except ValueError:
        return None


def smt_state(sys_root: str = "/sys") -> SmtState:
    """Whether SMT is active and how many threads share a core (from sysfs)."""
    active = read_text(f"{sys_root}/devices/system/cpu/smt/active")
    siblings = read_text(f"{sys_root}/devices/system/cpu/cpu0/topology/thread_siblings_list")
    return SmtState(smt_active=None if active is None else active == "1", cpu0_thread_siblings=siblings)


def core_types(hypervisor: bool, sys_root: str = "/sys") -> CoreTypes:
    """Whether the CPU has two kinds of cores (Intel's performance and efficiency cores: the kernel then registers a
    `cpu_core` and a `cpu_atom` PMU; an arm64 big.LITTLE its capacities per CPU). True, False, or None inside a
    virtual machine that shows neither (its hypervisor may hide the host's core types)."""
    intel = any(pathlib.Path(f"{sys_root}/devices/{pmu}").exists() for pmu in ("cpu_atom", "cpu_core"))
    capacities = {
        read_text(str(path)) for path in pathlib.Path(f"{sys_root}/devices/system/cpu").glob("cpu[0-9]*/cpu_capacity")
    }
    hybrid = intel or len(capacities - {None}) > 1
    return CoreTypes(cpu_hybrid=True if hybrid else (None if hypervisor else False))


def frequency_policy(sys_root: str = "/sys") -> FrequencyPolicy:
    """Governor, turbo/boost state and frequency driver, where the host exposes them."""
    no_turbo = read_text(f"{sys_root}/devices/system/cpu/intel_pstate/no_turbo")
    boost = read_text(f"{sys_root}/devices/system/cpu/cpufreq/boost")
    turbo = (no_turbo == "0") if no_turbo is not None else ((boost == "1") if boost is not None else None)
    return FrequencyPolicy(
        governor=read_text(f"{sys_root}/devices/system/cpu/cpu0/cpufreq/scaling_governor"),
        frequency_driver=read_text(f"{sys_root}/devices/system/cpu/cpu0/cpufreq/scaling_driver"),
        turbo=turbo,
        isolated_cpus=read_text(f"{sys_root}/devices/system/cpu/isolated") or None,
    )


def git_state(repo: pathlib.Path = REPO_ROOT) -> GitState:
    """Commit and dirty flag of the lab's own repository (None outside a git checkout)."""

    def git(*args: str) -> str | None:
        try:
            return subprocess.run(
                ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True
            ).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return None

    commit = git("rev-parse", "HEAD")
    status = git("status", "--porcelain", "--untracked-files=no")
    return GitState(git_commit=commit, git_dirty=None if commit is None or status is None else bool(status))


class HostEnvironment(CpuInfo, SmtState, CoreTypes, FrequencyPolicy, GitState):
    """What collect_host_environment returns: this host's part of environment.json (EnvironmentRecord, which the runner
    completes with the backend, the CPU sets, the engine and the lab builds)."""

    schema_version: int
    captured_at: str
    hostname: str
    machine: str
    kernel: str
    os: str | None
    cores_allowed: int
    memory_bytes: int
    load_average_1m: float
    python: str
    harness_version: str
    container_engine: str | None  # None here: the runner names the engine
    cpu_hygiene: HygieneRecord
    warnings: list[str]


def system_warnings(env: Mapping[str, object]) -> list[str]:
    """What on this host makes timings noisier, each with the fix. `env`: a HostEnvironment, or as much of one as is
    known. With a 'cpu_hygiene' record (the lab CPUs' governor, turbo, SMT and isolation, harness/host/cpu_hygiene.py)
    those are its findings, not cpu0's warnings here."""
    warnings = []
    if env.get("hypervisor"):
        warnings.append(
            "running in a virtual machine: other guests can steal CPU time; publish numbers from bare metal"
        )
    if "cpu_hygiene" in env:
        return warnings
    if env.get("governor") not in (None, "performance"):
        warnings.append(
            f"CPU governor is '{env['governor']}': set it to performance (cpupower frequency-set -g performance)"
        )
    if env.get("turbo"):
        warnings.append("turbo/boost is on: clock speed varies with temperature; disable it for stable numbers")
    if env.get("smt_active"):
        warnings.append(
            "SMT is on: a sibling thread can share the measured core; pin the lab to a core whose sibling is idle"
        )
    if not env.get("isolated_cpus"):
        warnings.append("no CPUs are isolated (isolcpus): the kernel may schedule other work on the lab's CPU")
    return warnings


def collect_host_environment(cpu_hygiene: HygieneRecord | None = None) -> HostEnvironment:
    """Everything about this host that a reader of the results needs, once per run. `cpu_hygiene`: the run's
    CpuHygiene.to_dict(); without it (`lab-harness env`) the one a default one-CPU run would find."""
    captured_at = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    cpu = parse_cpuinfo(read_text("/proc/cpuinfo") or "")
    smt, cores, policy, git = smt_state(), core_types(cpu["hypervisor"]), frequency_policy(), git_state()
    env = HostEnvironment(  # in the order environment.json has always listed them
        schema_version=SCHEMA_VERSION,
        captured_at=captured_at,
        hostname=platform.node(),
        machine=platform.machine(),
        kernel=platform.release(),
        os=read_text("/etc/os-release") and _os_pretty_name(read_text("/etc/os-release") or ""),
        cores_allowed=len(os.sched_getaffinity(0)),
        memory_bytes=os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"),
        load_average_1m=os.getloadavg()[0],
        python=platform.python_version(),
        harness_version=__version__,
        container_engine=None,
        cpu_model=cpu["cpu_model"],
        cpu_vendor=cpu["cpu_vendor"],
        cpu_family=cpu["cpu_family"],
        cpu_model_number=cpu["cpu_model_number"],
        cpu_flags=cpu["cpu_flags"],
        logical_cpus=cpu["logical_cpus"],
        hypervisor=cpu["hypervisor"],
        smt_active=smt["smt_active"],
        cpu0_thread_siblings=smt["cpu0_thread_siblings"],
        cpu_hybrid=cores["cpu_hybrid"],
        governor=policy["governor"],
        frequency_driver=policy["frequency_driver"],
        turbo=policy["turbo"],
        isolated_cpus=policy["isolated_cpus"],
        git_commit=git["git_commit"],
        git_dirty=git["git_dirty"],
        cpu_hygiene=cpu_hygiene if cpu_hygiene is not None else plan_and_check(None, None, 1)[1].to_dict(),
        warnings=[],
    )
    env["warnings"] = system_warnings(env)
    return env


def _os_pretty_name(os_release: str) -> str | None:
    for line in os_release.splitlines():
        if line.startswith("PRETTY_NAME="):
            return line.split("=", 1)[1].strip('"')
    return None
