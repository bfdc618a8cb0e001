"""ISA levels: which exist per architecture, the runtime switches for each, and checking the readback.

The levels live in isa_levels.toml; the switches that produce them live with each lab, in its lab.toml
([isa_switches."<runtime>".<major>]). A level is only trusted after the measured process reports flags that satisfy
the level's `expect` table.
"""

from __future__ import annotations

import functools
import pathlib
from dataclasses import dataclass

import tomllib

from harness.model.arch import IsaFlags
from harness.model.defaults import ISA_LEVELS_FILE, LABS_DIR
from harness.model.errors import ConfigError, UnknownNameError


@dataclass(frozen=True)
class IsaLevel:
    """One level a user can request, for one architecture."""

    name: str
    arch: str
    description: str
    expect: IsaFlags


@dataclass(frozen=True)
class IsaTable:
    """All levels per architecture and the switches per runtime version."""

    levels: dict[str, dict[str, IsaLevel]]
    switches: dict[str, dict[str, dict[str, str]]]

    def levels_for(self, arch: str) -> dict[str, IsaLevel]:
        """Levels of one architecture, in file order (native first)."""
        if arch not in self.levels:
            raise UnknownNameError("architecture", arch, self.levels, "in harness/config/isa_levels.toml")
        return self.levels[arch]

    def resolve(self, arch: str, names: list[str]) -> list[IsaLevel]:
        """Turns requested names (or ["all"]) into levels, rejecting unknown ones."""
        levels = self.levels_for(arch)
        if names == ["all"]:
            return list(levels.values())
        for name in names:
            if name not in levels:
                raise UnknownNameError("ISA level", name, levels, f"for {arch}")
        return [levels[name] for name in names]

    def switches_for(self, runtime: str, runtime_version: str, level: str) -> dict[str, str]:
        """Environment variables that request `level` on this runtime version."""
        key = f"{runtime}.{runtime_version.split('.')[0]}"
        table = self.switches.get(key)
        if table is None:
            raise ConfigError(
                f"no ISA switches are known for {runtime} {runtime_version}",
                f"add an [isa_switches.\"{runtime}\".{runtime_version.split('.')[0]}] table to the lab's lab.toml "
                "(lab/<lab>/lab.toml); "
                f"known: {', '.join(sorted(self.switches))}",
            )
        if level not in table:
            raise UnknownNameError("ISA level", level, table, f"for {runtime} {runtime_version}")
        return dict(table[level])

    def has_switches(self, runtime: str, runtime_version: str, level: str) -> bool:
        """False when the runtime's table (which must exist) has no entry for `level`: the runtime cannot honour it."""
        key = f"{runtime}.{runtime_version.split('.')[0]}"
        return key not in self.switches or level in self.switches[key]

    def all_switch_names(self) -> set[str]:
        """Every variable any table sets; stripped from the inherited environment so none leaks in."""
        return {name for table in self.switches.values() for level in table.values() for name in level}


def load_isa_table(path: pathlib.Path = ISA_LEVELS_FILE, labs_dir: pathlib.Path = LABS_DIR) -> IsaTable:
    """Reads the levels from isa_levels.toml and every lab's switches from its lab.toml ([isa_switches]) into an
    IsaTable."""
    data = tomllib.loads(path.read_text())
    levels = {
        arch: {
            name: IsaLevel(name, arch, spec["description"], dict(spec.get("expect", {})))
            for name, spec in table.items()
        }
        for arch, table in data["levels"].items()
    }
    switches: dict[str, dict[str, dict[str, str]]] = {}
    owner: dict[str, pathlib.Path] = {}
    for lab_file in sorted(labs_dir.glob("*/lab.toml")):
        for runtime, by_major in tomllib.loads(lab_file.read_text()).get("isa_switches", {}).items():
            for major, table in by_major.items():
                key = f"{runtime}.{major}"
                if key in switches:
                    raise ConfigError(
                        f"ISA switches for {runtime} {major} are in both {owner[key]} and {lab_file}",
                        "keep them in the lab that runs that runtime",
                    )
                unknown = set(table) - {level for by_arch in levels.values() for level in by_arch}
                if unknown:
                    raise ConfigError(
                        f'{lab_file}: [isa_switches."{runtime}".{major}] names unknown ISA level(s) '
                        f"{', '.join(sorted(unknown))}",
                        f"levels are those of {path.name}: "
                        + ", ".join(sorted({lv for by_arch in levels.values() for lv in by_arch})),
                    )
                switches[key] = {level: dict(env) for level, env in table.items()}
                owner[key] = lab_file
    return IsaTable(levels, switches)


@functools.lru_cache(maxsize=None)
def level_order(path: pathlib.Path = ISA_LEVELS_FILE) -> tuple[str, ...]:
    """Every level name in isa_levels.toml's order (an architecture's levels after those of the ones before it): the
    order reports show levels in."""
    names: dict[str, None] = {}
    for table in tomllib.loads(path.read_text())["levels"].values():
        names.update(dict.fromkeys(table))
    return tuple(names)


def unmet_expectations(level: IsaLevel, flags: IsaFlags) -> list[str]:
    """Flags that contradict the level, as 'avx2=True (expected False)'; empty when it took effect.

    A flag the process does not report is unknown, not a contradiction: a runtime older than the API cannot say
    (.NET Core 3.1 has no Vector128.IsHardwareAccelerated and no AVX-512 API). The level must still be shown by at
    least one flag the process reports; a level none of whose flags can be read back is unmet."""
    expected = level.expect.items()
    reported = [(name, want) for name, want in expected if name in flags]
    if expected and not reported:
        return [
            f"none of {', '.join(sorted(level.expect))} is reported by this runtime, so level {level.name!r} cannot be "
            "verified"
        ]
    return [f"{name}={flags[name]!r} (expected {want!r})" for name, want in reported if flags[name] != want]


def describe_effective(flags: IsaFlags) -> str:
    """A short name for the widest vector ISA the process actually had (e.g. avx512, sse4.2, scalar)."""
    ladder = [
        ("avx512f", "avx512"),
        ("avx2", "avx2"),
        ("avx", "avx"),
        ("sse42", "sse4.2"),
        ("sse41", "sse4.1"),
        ("ssse3", "ssse3"),
        ("sse3", "sse3"),
        ("sse2", "sse2"),
        ("adv_simd", "advsimd"),
    ]
    for flag, name in ladder:
        if flags.get(flag):
            return name
    return "scalar"
