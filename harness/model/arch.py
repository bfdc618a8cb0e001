"""Architectures: the one a run's ISA levels are planned for (the measured host's) and the one its engine runs
natively (for telling emulated processes apart), in lab terms (x64, arm64) and Debian's (amd64, arm64).

Both are this machine's unless a run over several hosts (harness/session/hosts_run.py) sets them for the process
that measures on another host: JSONLAB_HOST_ARCH, the architecture of the images it runs there (their ISA levels),
and JSONLAB_ENGINE_ARCH, the architecture of that host's engine. They differ only for a host told to run another
platform's images (hosts.toml `platform`), which it then runs under emulation: functional checks, never verdicts.

An ISA readback (IsaFlags) is what a lab process reports of the instruction sets it may use: flag -> on/off as named in
harness/config/isa_levels.toml's `expect`, beside counts such as vector_byte_count.
"""

from __future__ import annotations

import os
import platform

#: platform.machine() and Docker's names → the architecture names labs report.
HOST_ARCH = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}
#: Lab architecture names → Debian's (and Docker platforms': linux/<debian>).
DEBIAN_ARCH = {"x64": "amd64", "arm64": "arm64"}
HOST_ARCH_VARIABLE = "JSONLAB_HOST_ARCH"
ENGINE_ARCH_VARIABLE = "JSONLAB_ENGINE_ARCH"

#: A lab process's ISA readback: flag -> on/off, and counts such as vector_byte_count (docs/lab-contract.md, `env`).
IsaFlags = dict[str, bool | int]


def lab_arch(name: str) -> str:
    """x64 / arm64 for any of the names machines, Docker and Debian use."""
    return HOST_ARCH.get(name.lower(), name.lower())


def host_arch() -> str:
    """The measured host's architecture in lab terms (x64, arm64): this machine's, or the one JSONLAB_HOST_ARCH
    names for a process measuring on another host."""
    return lab_arch(os.environ.get(HOST_ARCH_VARIABLE) or platform.machine())


def engine_arch() -> str:
    """The architecture the measured host's engine runs natively: JSONLAB_ENGINE_ARCH, else host_arch()."""
    return lab_arch(os.environ.get(ENGINE_ARCH_VARIABLE) or host_arch())
