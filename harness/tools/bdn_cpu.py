"""A published CPU as BenchmarkDotNet's header prints it ('AMD Ryzen 7 5800H with Radeon Graphics', 'Intel Core i7-6700
CPU 3.40GHz (Skylake)'), read in the lab's terms: its microarchitecture (a key of harness/config/cpu_models.toml), its
vendor and architecture, and its widest vector instruction set. The names live in cpu_models.toml's [[printed_names]],
beside the microarchitectures they name, so the table has one home."""

from __future__ import annotations

import functools
import pathlib
import re
from dataclasses import dataclass

from harness.config.cpu_models import CPU_MODELS_FILE, VECTOR_ISAS, VENDOR_ARCH, VENDOR_NAMES, load_cpu_table
from harness.config.data_files import read_toml
from harness.model.errors import ConfigError


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


@dataclass(frozen=True)
class _Entry:
    pattern: re.Pattern[str]
    cpu: PrintedCpu


def read_cpu(printed: str | None, path: pathlib.Path = CPU_MODELS_FILE) -> PrintedCpu:
    """The first [[printed_names]] entry whose pattern the printed name holds; an empty PrintedCpu when none does."""
    return next((e.cpu for e in _entries(path) if printed and e.pattern.search(printed)), PrintedCpu())


@functools.cache
def _entries(path: pathlib.Path) -> tuple[_Entry, ...]:
    """cpu_models.toml's [[printed_names]], checked: a pattern that compiles, a known microarchitecture or vendor (one
    of the two), a vector instruction set cpu_models.py names."""
    table = load_cpu_table(path)
    isas = [name for _, name in VECTOR_ISAS]
    entries = []
    for number, raw in enumerate(read_toml(path, "cpu_models.toml is UTF-8 TOML").get("printed_names", []), 1):
        where = f"{path.name} [[printed_names]] entry {number}"
        unknown = set(raw) - {"pattern", "microarchitecture", "vendor", "vector_isa"}
        if unknown or "pattern" not in raw or ("microarchitecture" in raw) == ("vendor" in raw):
            raise ConfigError(
                f"{where} has keys {sorted(raw)}",
                "each entry has a pattern, one of microarchitecture / vendor, and optionally vector_isa",
            )
        if raw.get("vector_isa") not in (None, *isas):
            raise ConfigError(f"{where}: vector_isa {raw['vector_isa']!r}", f"one of: {', '.join(isas)}")
        if raw.get("vendor") is not None and raw["vendor"] not in VENDOR_ARCH:
            raise ConfigError(f"{where}: vendor {raw['vendor']!r}", f"one of: {', '.join(VENDOR_ARCH)}")
        try:
            pattern = re.compile(raw["pattern"], re.I)
        except re.error as e:
            raise ConfigError(f"{where}: pattern {raw['pattern']!r} is no regular expression ({e})", "fix it") from None
        if "microarchitecture" in raw:
            entry = table.get(raw["microarchitecture"], f"({where})")
            cpu = PrintedCpu(entry.key, entry.vendor, raw.get("vector_isa"), entry.name)
        else:
            cpu = PrintedCpu(None, raw["vendor"], raw.get("vector_isa"), VENDOR_NAMES[raw["vendor"]])
        entries.append(_Entry(pattern, cpu))
    return tuple(entries)
