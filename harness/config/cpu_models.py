"""CPU microarchitectures as data (cpu_models.toml): a host's CPU identified from the vendor, family and model
number its /proc/cpuinfo gives, and how near a host's CPU is to the one a figure was published on.

Nearness is a rank, smallest nearest: the same microarchitecture (0), the same core lineage (1, e.g. a Coffee Lake
laptop and a Skylake desktop), the same vendor (2), another vendor of the same architecture (3). A published CPU of
another architecture, or one the experiment does not describe, has no rank (the caller says why).
"""

from __future__ import annotations

import dataclasses
import functools
import pathlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import tomllib

from harness.config.data_files import TomlValue
from harness.model.defaults import REPO_ROOT
from harness.model.errors import ConfigError, UnknownNameError
from harness.model.experiment import Hardware

CPU_MODELS_FILE = REPO_ROOT / "harness" / "config" / "cpu_models.toml"
#: The vendors a hardware entry or a host may name, and the architecture each makes.
VENDOR_ARCH = {"intel": "x64", "amd": "x64", "arm": "arm64", "apple": "arm64", "ampere": "arm64", "qualcomm": "arm64"}
#: How a report writes each vendor.
VENDOR_NAMES = {
    "intel": "Intel",
    "amd": "AMD",
    "arm": "Arm",
    "apple": "Apple",
    "ampere": "Ampere",
    "qualcomm": "Qualcomm",
}
#: Nearness ranks (smaller is nearer) and what each means in a report.
SAME_MICROARCHITECTURE, SAME_LINEAGE, SAME_VENDOR, SAME_ARCH = 0, 1, 2, 3
RANK_WORDS = {
    SAME_MICROARCHITECTURE: "the same microarchitecture",
    SAME_LINEAGE: "the same core lineage",
    SAME_VENDOR: "the same vendor",
    SAME_ARCH: "another vendor",
}
_KEYS = {"name", "vendor", "arch", "family", "models", "lineage"}


#: /proc/cpuinfo flags (x86 `flags`, arm64 `Features`) → the widest vector instruction set they name, widest first.
VECTOR_ISAS = (
    ("avx512f", "AVX-512"),
    ("avx2", "AVX2"),
    ("avx", "AVX"),
    ("sse4_2", "SSE4.2"),
    ("sse2", "SSE2"),
    ("sve2", "SVE2"),
    ("sve", "SVE"),
    ("asimd", "AdvSimd"),
)


def widest_vector_isa(flags: Sequence[str]) -> str | None:
    """'AVX-512', 'AVX2', 'AdvSimd', …: the widest vector instruction set among a CPU's flags; None when none is named
    (flags not read)."""
    have = set(flags)
    return next((name for flag, name in VECTOR_ISAS if flag in have), None)


@dataclass(frozen=True)
class Microarchitecture:
    """One entry of cpu_models.toml."""

    key: str
    name: str
    vendor: str
    arch: str
    family: int | None  # x86 only
    models: tuple[int, ...]
    lineage: str


@dataclass(frozen=True)
class CpuDescription:
    """A CPU as far as it is known: a published one (an experiment's hardware entry) or a host's (its probe)."""

    vendor: str | None = None
    microarchitecture: Microarchitecture | None = None
    known_arch: str | None = None  # a host's architecture as its engine said, whatever its CPU is

    @property
    def arch(self) -> str | None:
        if self.microarchitecture is not None:
            return self.microarchitecture.arch
        return VENDOR_ARCH.get(self.vendor or "") or self.known_arch

    def describe(self) -> str:
        vendor = VENDOR_NAMES.get(self.vendor or "", self.vendor)
        if self.microarchitecture is not None:
            return f"{vendor} {self.microarchitecture.name}"
        if vendor:
            return f"{vendor} (microarchitecture not identified)"
        return f"an unidentified {self.known_arch} CPU" if self.known_arch else "an unidentified CPU"


@dataclass(frozen=True)
class PrintedName:
    """A [[printed_names]] entry: a pattern of the CPU name BenchmarkDotNet prints, and what it names: a
    microarchitecture of the table, or only a vendor; and the widest vector instruction set such a CPU has."""

    pattern: re.Pattern[str]
    microarchitecture: Microarchitecture | None
    vendor: str
    vector_isa: str | None


@dataclass(frozen=True)
class CpuTable:
    entries: dict[str, Microarchitecture]
    printed_names: tuple[PrintedName, ...] = ()

    def get(self, key: str, where: str = "") -> Microarchitecture:
        if key not in self.entries:
            raise UnknownNameError("microarchitecture", key, self.entries, where)
        return self.entries[key]

    def identify(self, vendor: str | None, family: int | None, model: int | None) -> Microarchitecture | None:
        """The entry matching a probed CPU; None when the table does not list it."""
        for entry in self.entries.values():
            if entry.vendor == vendor and entry.family == family and model in entry.models:
                return entry
        return None

    def describe_host(
        self, vendor: str | None, family: int | None, model: int | None, arch: str | None = None
    ) -> CpuDescription:
        """A host's CPU from its probe: identified when the table lists it, else by vendor (and `arch`) only."""
        return CpuDescription(vendor, self.identify(vendor, family, model), arch)


def nearness(published: CpuDescription, host: CpuDescription) -> int | None:
    """How near the host's CPU is to the published one (the ranks above); None when the published CPU is not
    described or is of another architecture than the host's."""
    if published.arch is None or published.arch != host.arch:
        return None
    p, h = published.microarchitecture, host.microarchitecture
    if p is not None and h is not None and p.key == h.key:
        return SAME_MICROARCHITECTURE
    if p is not None and h is not None and p.lineage == h.lineage:
        return SAME_LINEAGE
    return SAME_VENDOR if published.vendor == host.vendor else SAME_ARCH


@functools.cache
def load_cpu_table(path: pathlib.Path = CPU_MODELS_FILE) -> CpuTable:
    """cpu_models.toml, checked: known keys and vendors, an architecture of the vendor's, no CPU listed twice."""
    data = tomllib.loads(path.read_text())
    entries: dict[str, Microarchitecture] = {}
    seen: dict[tuple[str, int | None, int], str] = {}
    for key, raw in data.get("microarchitectures", {}).items():
        where = f"{path.name} [microarchitectures.{key}]"
        if set(raw) - _KEYS or not {"name", "vendor", "arch", "models", "lineage"} <= set(raw):
            raise ConfigError(f"{where} has keys {sorted(raw)}", f"the keys are {', '.join(sorted(_KEYS))}")
        if VENDOR_ARCH.get(raw["vendor"]) != raw["arch"]:
            raise ConfigError(
                f"{where}: vendor {raw['vendor']!r} with arch {raw['arch']!r}",
                f"vendors and their architecture: {VENDOR_ARCH}",
            )
        entry = Microarchitecture(
            key, raw["name"], raw["vendor"], raw["arch"], raw.get("family"), tuple(raw["models"]), raw["lineage"]
        )
        for model in entry.models:
            other = seen.setdefault((entry.vendor, entry.family, model), key)
            if other != key:
                raise ConfigError(f"{where}: model {model:#x} is listed under {other} too", "keep it in one entry")
        entries[key] = entry
    table = CpuTable(entries)
    printed = data.get("printed_names", [])
    if not isinstance(printed, list) or not all(isinstance(raw, dict) for raw in printed):
        raise ConfigError(f"{path.name}: printed_names is a list of tables", "write each as [[printed_names]]")
    names = tuple(
        _printed_name(raw, table, f"{path.name} [[printed_names]] entry {n}") for n, raw in enumerate(printed, 1)
    )
    return dataclasses.replace(table, printed_names=names)


def _printed_name(raw: Mapping[str, TomlValue], table: CpuTable, where: str) -> PrintedName:
    """One [[printed_names]] entry, checked: a pattern that compiles, a known microarchitecture or vendor (one of the
    two), a vector instruction set of VECTOR_ISAS."""
    isas = [name for _, name in VECTOR_ISAS]
    if (
        set(raw) - {"pattern", "microarchitecture", "vendor", "vector_isa"}
        or "pattern" not in raw
        or (("microarchitecture" in raw) == ("vendor" in raw))
    ):
        raise ConfigError(
            f"{where} has keys {sorted(raw)}",
            "each entry has a pattern, one of microarchitecture / vendor, and optionally vector_isa",
        )
    isa = raw.get("vector_isa")
    if isa not in (None, *isas):
        raise ConfigError(f"{where}: vector_isa {raw['vector_isa']!r}", f"one of: {', '.join(isas)}")
    vendor = raw.get("vendor")
    if vendor is not None and vendor not in VENDOR_ARCH:
        raise ConfigError(f"{where}: vendor {raw['vendor']!r}", f"one of: {', '.join(VENDOR_ARCH)}")
    text = raw["pattern"]
    try:
        if not isinstance(text, str):  # refused as re.compile refuses it
            raise TypeError("first argument must be string or compiled pattern")
        pattern = re.compile(text, re.I)
    except (re.error, TypeError) as e:
        raise ConfigError(f"{where}: pattern {raw['pattern']!r} is no regular expression ({e})", "fix it") from None
    key = raw.get("microarchitecture")
    if key is not None and not isinstance(key, str):  # a number, an array or a table names no entry
        raise UnknownNameError("microarchitecture", repr(key), table.entries, f"({where})")
    entry = table.get(key, f"({where})") if key is not None else None
    # without an entry, the vendor is a key of VENDOR_ARCH (checked above); a vector_isa None or one of isas
    return PrintedName(pattern, entry, entry.vendor if entry else str(vendor), isa if isinstance(isa, str) else None)


def published_cpu(hardware: Hardware, table: CpuTable) -> CpuDescription:
    """The CPU an experiment's hardware entry describes (as much as it says)."""
    if hardware.microarchitecture:
        entry = table.get(hardware.microarchitecture)
        return CpuDescription(entry.vendor, entry)
    return CpuDescription(hardware.cpu_vendor)
