"""A published CPU as BenchmarkDotNet's header prints it ('AMD Ryzen 7 5800H with Radeon Graphics', 'Intel Core i7-6700
CPU 3.40GHz (Skylake)'), read in the lab's terms: its microarchitecture (a key of harness/config/cpu_models.toml), its
vendor and architecture, and its widest vector instruction set. The names live in cpu_models.toml's [[printed_names]],
beside the microarchitectures they name, read and checked with them (harness/config/cpu_models.py)."""

from __future__ import annotations

import pathlib
from dataclasses import dataclass

from harness.config.cpu_models import CPU_MODELS_FILE, VENDOR_ARCH, VENDOR_NAMES, load_cpu_table


@dataclass(frozen=True)
class PrintedCpu:
    """What a printed CPU name says; None where it says nothing the table knows."""

    microarchitecture: str | None = None  # a key of cpu_models.toml
    vendor: str | None = None  # a vendor of cpu_models.VENDOR_ARCH
    vector_isa: str | None = None  # 'AVX-512', 'AVX2', 'AVX', 'SSE4.2', 'AdvSimd', 'SVE', 'SVE2'
    name: str = ""  # how a comment names it: 'Zen 3', 'Intel'

    @property
    def arch(self) -> str | None:
        """'x64' or 'arm64': the architecture of its vendor."""
        return VENDOR_ARCH.get(self.vendor or "")


def read_cpu(printed: str | None, path: pathlib.Path = CPU_MODELS_FILE) -> PrintedCpu:
    """The first [[printed_names]] entry whose pattern the printed name holds; an empty PrintedCpu when none does."""
    for entry in load_cpu_table(path).printed_names:
        if printed and entry.pattern.search(printed):
            known = entry.microarchitecture
            if known is not None:
                return PrintedCpu(known.key, known.vendor, entry.vector_isa, known.name)
            return PrintedCpu(None, entry.vendor, entry.vector_isa, VENDOR_NAMES[entry.vendor])
    return PrintedCpu()
