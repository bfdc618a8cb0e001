"""What a fake .NET process reads back: how .NET 10's ISA switches change its instruction-set flags (as observed on
10.0.12) and which run settings its variables select, an ignored switch (an unknown name) changing nothing."""

from __future__ import annotations

from collections.abc import Mapping

from harness.model.arch import IsaFlags
from harness.model.json_value import JsonValue, as_object
from harness.model.places import SettingsReadback

#: Switch → readback flags it turns off (observed on .NET 10.0.12, x64 with AVX-512).
_AVX_AND_UP = ("avx", "avx2", "avx512f", "vector256", "vector512")
SWITCH_EFFECTS: dict[str, tuple[str, ...]] = {
    "DOTNET_EnableAVX512": ("avx512f", "vector512"),
    "DOTNET_EnableAVX": _AVX_AND_UP,
    "DOTNET_EnableSSE42": ("sse3", "ssse3", "sse41", "sse42", *_AVX_AND_UP),
    "DOTNET_EnableHWIntrinsic": ("sse2", "sse3", "ssse3", "sse41", "sse42", "vector128", *_AVX_AND_UP),
}


def captured_flags(isa: JsonValue) -> IsaFlags:
    """A captured env's `isa` object as a readback: flag -> on/off, and counts (vector_byte_count); a member of
    another type (none in the captured env) is left out."""
    return {flag: value for flag, value in as_object(isa).items() if isinstance(value, (bool, int))}


def switched_flags(native: Mapping[str, bool | int], switches: dict[str, str], ignored: frozenset[str]) -> IsaFlags:
    """The readback a process with these switches would report, from the native one."""
    flags = dict(native)
    for name, value in switches.items():
        if value == "0" and name not in ignored:
            for flag in SWITCH_EFFECTS.get(name, ()):
                flags[flag] = False
    return flags


def switched_settings(switches: dict[str, str], ignored: frozenset[str]) -> SettingsReadback:
    """The run settings a .NET process with these variables would read back."""

    def asked(name: str, default: str) -> str:
        return default if name in ignored else switches.get(name, default)

    return {
        "tiered_compilation": asked("DOTNET_TieredCompilation", "1") != "0",
        "gc_server": asked("DOTNET_gcServer", "0") == "1",
    }
