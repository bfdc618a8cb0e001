"""Where a BenchmarkDotNet report ran, in the lab's terms: the runtime of a job line, the ISA level matching its
instruction sets or its CPU's code name, and the lab runtimes that stand in for it."""

from __future__ import annotations

import re

from harness.config.labs import LabSpec
from harness.model.records import STEADY

#: Instruction sets a job line names (BenchmarkDotNet 0.13 and later) -> the lab's ISA level that matches them.
JOB_LINE_ISA = (
    (re.compile(r"AVX-?512|x86-64-v4", re.I), "native"),
    (re.compile(r"\bAVX2\b|x86-64-v3", re.I), "no-avx512"),
    (re.compile(r"x86-64-v2|\bAVX\b|SSE4\.2", re.I), "no-avx2"),
    (re.compile(r"AdvSIMD", re.I), "native"),
)


#: Intel code names BenchmarkDotNet prints after the CPU name -> the lab's ISA level matching their vector instructions.
CODE_NAME_ISA = {
    **dict.fromkeys(
        [
            "Haswell",
            "Broadwell",
            "Skylake",
            "Kaby Lake",
            "Kaby Lake R",
            "Kaby Lake G",
            "Amber Lake",
            "Amber Lake Y",
            "Coffee Lake",
            "Coffee Lake R",
            "Whiskey Lake",
            "Comet Lake",
            "Alder Lake",
            "Raptor Lake",
        ],
        "no-avx512",
    ),
    **dict.fromkeys(
        [
            "Skylake-X",
            "Cascade Lake",
            "Cooper Lake",
            "Ice Lake",
            "Tiger Lake",
            "Rocket Lake",
            "Sapphire Rapids",
            "Emerald Rapids",
            "Granite Rapids",
        ],
        "native",
    ),
    **dict.fromkeys(["Nehalem", "Westmere", "Sandy Bridge", "Ivy Bridge"], "no-avx2"),
}


_RUNTIME = re.compile(r"^(\.NET(?: Core| Framework)? \d+(?:\.\d+)*(?:-[\w.]+)?|Mono [\d.]+|NativeAOT [\d.]+)")


def runtime_of(line: str | None) -> str | None:
    """'.NET Core 5.0.4 (CoreCLR …), X64 RyuJIT' -> '.NET Core 5.0.4'; '.NET 8.0.0 (8.0.23.53103), X64 RyuJIT AVX2' ->
    '.NET 8.0.0'."""
    m = _RUNTIME.match((line or "").strip())
    return m.group(1) if m else None


def isa_level_of(job_line: str | None, cpu: str | None) -> tuple[str | None, str]:
    """(level, why) from the job line's instruction set, else the CPU's code name; (None, why not) when neither says."""
    for pattern, level in JOB_LINE_ISA:
        if job_line and (m := pattern.search(job_line)):
            return level, f"the job line says {m.group(0)}"
    code = re.search(r"\(([^()]+)\)\s*$", cpu or "")
    if code and code.group(1) in CODE_NAME_ISA:
        return CODE_NAME_ISA[code.group(1)], f"{code.group(1)} CPU"
    return None, "the header names no instruction set and no CPU code name this import knows"


def stand_ins(runtime: str | None, sdk: str | None, lab: LabSpec) -> list[str]:
    """The lab's runtimes that can stand in for a published .NET runtime: the same version, else the same major.minor,
    else the same major (steady-state builds only, never a twin), nearest version first (8.0.31 before 8.0.0 for a
    published 8.0.22); empty when none (or for .NET Framework and Mono)."""
    version = None
    if runtime and runtime.startswith(".NET") and "Framework" not in runtime:
        version = runtime.split()[-1]
    elif runtime is None and sdk:
        version = ".".join(sdk.split(".")[:2])
    if not version:
        return []
    usable = [r for r in lab.runtimes_measuring(STEADY) if not (lab.runtimes.get(r) and lab.runtimes[r].twin_of)]
    numbers = version.split("-")[0].split(".")
    for depth in (len(numbers), 2, 1):
        prefix = numbers[:depth]
        found = [r for r in usable if lab.runtimes.get(r) and lab.runtimes[r].version.split(".")[:depth] == prefix]
        if found:
            return sorted(found, key=lambda r: _distance(lab.runtimes[r].version, numbers))
    return []


def _distance(version: str, published: list[str]) -> tuple[int, ...]:
    """How far a lab runtime's version is from the published one, component by component (a stable sort keeps file
    order between equals)."""
    mine = version.split("-")[0].split(".")
    return tuple(abs(int(a) - int(b)) if a.isdigit() and b.isdigit() else 0 for a, b in zip(mine, published))
