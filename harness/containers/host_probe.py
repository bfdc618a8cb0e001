"""What a host is, asked through its Docker engine before anything is planned there: the engine (version,
architecture, kernel, OS, CPUs, memory, from `docker info`), then the CPU itself (model, flags, isolated CPUs, from
/proc/cpuinfo and sysfs read in a throw-away container of an image the host has), and the ISA levels a run may plan
there (harness/config/isa_levels.toml for its architecture: an arm64 host gets arm64's levels, measured on arm64,
never emulated).

A host that does not answer is reported with the reason, never guessed at.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypedDict, cast

from harness.config.hosts import HostSpec
from harness.config.isa import IsaTable
from harness.containers.engine import docker
from harness.host.environment import parse_cpuinfo
from harness.model.errors import MissingToolError
from harness.model.folder.host_facts import HostFactsRecord
from harness.model.json_value import JsonObject, JsonValue, as_text

#: Seconds a host's engine may take to answer `docker info` before it counts as unreachable.
HOST_TIMEOUT_S = 20
#: Docker's names for architectures → the ISA table's.
ARCHES = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}
#: What the probe container prints: the CPU description, a separator, the kernel's isolated CPUs.
_SEPARATOR = "--- isolated ---"
_CPU_SCRIPT = f"cat /proc/cpuinfo; echo '{_SEPARATOR}'; cat /sys/devices/system/cpu/isolated 2>/dev/null || true"

Docker = Callable[[Sequence[str], float], subprocess.CompletedProcess[str]]


def run_docker(args: Sequence[str], timeout: float) -> subprocess.CompletedProcess[str]:
    """The docker CLI, its output captured; a timeout is an answer too (exit 124)."""
    try:
        return docker(*args, timeout=timeout)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(["docker", *args], 124, "", f"no answer within {timeout:.0f} s")
    except MissingToolError as e:
        return subprocess.CompletedProcess(["docker", *args], 127, "", str(e))


class EngineDetails(TypedDict, total=False):
    """What else a host's engine tells (HostFacts.details): the machine behind it (`docker info`'s Name; engines on one
    machine share its CPUs)."""

    machine: str | None


@dataclass(frozen=True)
class HostFacts:
    """A host as its engine describes it; `reachable` False with `reason` when it did not answer."""

    name: str
    context: str | None
    reachable: bool
    reason: str = ""
    engine_version: str | None = None
    arch: str | None = None  # the ISA table's name: x64, arm64
    kernel: str | None = None
    os: str | None = None
    cpus: int | None = None
    memory_bytes: int | None = None
    cpu_model: str | None = None
    cpu_vendor: str | None = None  # intel, amd, arm, apple, ... (harness/host/environment.py CPU_VENDORS)
    cpu_family: int | None = None  # x86 only
    cpu_model_number: int | None = None  # x86 model, arm64 CPU part
    cpu_flags: tuple[str, ...] = ()
    isolated_cpus: str | None = None
    isa_levels: tuple[str, ...] = ()
    details: EngineDetails = field(default_factory=lambda: EngineDetails())

    def describe(self) -> str:
        """One line for the run's first lines and `harness hosts`."""
        if not self.reachable:
            return f"{self.name}: unreachable ({self.reason})"
        cpu = self.cpu_model or "CPU model not read yet"
        isolated = f", isolated CPUs {self.isolated_cpus}" if self.isolated_cpus else ", no isolated CPU"
        levels = ", ".join(self.isa_levels) or "none"
        return (
            f"{self.name}: {cpu}, {self.cpus} CPUs, {self.arch}, kernel {self.kernel}, Docker {self.engine_version}"
            f"{isolated}; ISA levels {levels}"
        )

    def record(self) -> HostFactsRecord:
        """The facts as a run folder keeps them (hosts.json `facts`, environment.json `host`): every field, by name."""
        return cast(HostFactsRecord, dataclasses.asdict(self))  # the same keys: tests/harness/model/test_run_records.py


def probe_engine(host: HostSpec, isa: IsaTable, docker: Docker = run_docker) -> HostFacts:
    """The host's engine, from `docker info` through its context."""
    done = docker([*host.docker_args(), "info", "--format", "{{json .}}"], HOST_TIMEOUT_S)
    info = _json(done.stdout) if done.returncode == 0 else None
    if not info or not info.get("ServerVersion"):
        reason = (done.stderr.strip().splitlines() or ["no answer"])[-1]
        return HostFacts(host.name, host.context, False, f"its Docker engine does not answer: {reason}")
    arch = ARCHES.get(str(info.get("Architecture")), str(info.get("Architecture")))
    levels = tuple(isa.levels.get(arch, {}))
    return HostFacts(
        host.name,
        host.context,
        True,
        engine_version=as_text(info.get("ServerVersion")),
        arch=arch,
        kernel=as_text(info.get("KernelVersion")),
        os=as_text(info.get("OperatingSystem")),
        cpus=_count(info.get("NCPU")),
        memory_bytes=_count(info.get("MemTotal")),
        isa_levels=levels,
        reason="" if levels else f"the ISA table has no levels for architecture {arch}",
        details={
            "machine": as_text(info.get("Name"))
        },  # the machine behind the engine: engines on one machine share CPUs
    )


def probe_cpu(facts: HostFacts, host: HostSpec, image: str, docker: Docker = run_docker) -> HostFacts:
    """The host's CPU model, flags and isolated CPUs, read in a throw-away container of `image` (one the host has),
    without network."""
    if not facts.reachable:
        return facts
    done = docker(
        [*host.docker_args(), "run", "--rm", "--network", "none", "--entrypoint", "sh", image, "-c", _CPU_SCRIPT],
        HOST_TIMEOUT_S,
    )
    if done.returncode != 0:
        reason = (done.stderr.strip().splitlines() or [f"exit {done.returncode}"])[-1]
        return dataclasses.replace(facts, reason=f"its CPU could not be read in {image}: {reason}")
    cpuinfo, _, isolated = done.stdout.partition(_SEPARATOR)
    cpu = parse_cpuinfo(cpuinfo)
    return dataclasses.replace(
        facts,
        cpu_model=cpu["cpu_model"],
        cpu_vendor=cpu["cpu_vendor"],
        cpu_family=cpu["cpu_family"],
        cpu_model_number=cpu["cpu_model_number"],
        cpu_flags=tuple(cpu["cpu_flags"]),
        isolated_cpus=isolated.strip() or None,
    )


def _json(text: str) -> JsonObject | None:
    """`docker info`'s JSON object; None when the engine printed something else."""
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _count(value: JsonValue) -> int | None:
    """A count `docker info` gives (CPUs, bytes of memory): an integer, else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None
