"""One job of a BenchmarkDotNet report in the lab's terms: its runtime and runtime family (.NET, .NET Framework, Mono),
the toolchain it ran with (a process of its own, in-process, Native AOT), the architecture of its code and the ISA
level it ran at. Read from its line in the header ('.NET 8.0.3 (8.0.324.11423), Arm64 RyuJIT AdvSIMD', 'Mono 6.12.0
(Visual Studio), X64 VectorSize=256', '.NET 8.0.3, X64 NativeAOT AVX2') and from its job columns or the header's job
settings ('EnvironmentVariables=DOTNET_EnableAVX512F=0', 'Toolchain=InProcessEmitToolchain', 'Runtime=Mono').

The line says what took effect: BenchmarkDotNet prints each job's runtime and instruction sets as its own process
read them, so an ISA switch the runtime ignored shows there. A switch the job set is what was asked for, read only
when the line names no instruction set (BenchmarkDotNet before 0.13)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from harness.bdn.cpu import PrintedCpu, read_cpu
from harness.config.isa import IsaTable, level_order

#: The runtime families a job line names.
CORE, FRAMEWORK, MONO = ".NET", ".NET Framework", "Mono"
#: How a job ran: a process of its own (BenchmarkDotNet's default, as the lab measures), in the host's process, or
# compiled ahead of time.
OWN_PROCESS, IN_PROCESS, NATIVE_AOT = "own process", "in-process", "Native AOT"

#: Instruction sets a job line names (BenchmarkDotNet 0.13 and later) -> the lab's ISA level that matches them, widest
# first ('AVX-512F+CD+BW+DQ+VL+VBMI' holds 'AVX' too). VectorSize=256 is what lines of .NET Framework and Mono say: a
# Vector<T> of AVX2's width.
JOB_LINE_ISA = (
    (re.compile(r"AVX-?512|x86-64-v4", re.I), "native"),
    (re.compile(r"\bAVX2\b|x86-64-v3|VectorSize=256", re.I), "no-avx512"),
    (re.compile(r"x86-64-v2|\bAVX\b|SSE4\.2", re.I), "no-avx2"),
    (re.compile(r"SSE4\.1|\bSSSE3\b|\bSSE3\b|\bSSE2\b", re.I), "sse2"),
    (re.compile(r"AdvSIMD", re.I), "native"),
)
#: A CPU's widest vector instruction set (harness/config/cpu_models.toml) -> the lab's ISA level matching it.
VECTOR_ISA_LEVEL = {
    "AVX-512": "native",
    "AVX2": "no-avx512",
    "AVX": "no-avx2",
    "SSE4.2": "no-avx2",
    "SSE2": "sse2",
    "AdvSimd": "native",
    "SVE": "native",
    "SVE2": "native",
}
#: ISA switches a write-up may set that the lab's own tables (lab.toml [isa_switches]) do not use: AVX2 off leaves AVX,
# whose 256-bit vectors .NET does not accelerate without AVX2, so the nearest level is no-avx2.
OTHER_SWITCHES = {("EnableAVX2", "0"): "no-avx2"}

_RUNTIME = re.compile(
    r"^(\.NET(?: Core| Framework)? \d+(?:\.\d+)*(?:-[\w.]+)?|Mono [\d.]+|NativeAOT [\d.]+|CoreRT [\d.]+[\w.-]*)"
)
_ARCH = {"x64": "x64", "x86": "x86", "arm64": "arm64", "arm": "arm"}
#: The 64-bit architecture whose CPUs run a job's code: a CPU's vector instructions serve a 32-bit job of its family.
_CPU_ARCH = {"x64": "x64", "x86": "x64", "arm64": "arm64", "arm": "arm64"}
_SWITCH = re.compile(r"(?:DOTNET_|COMPlus_)(\w+)=([^,\s]+)")


@dataclass(frozen=True)
class JobReading:
    """One job as the lab reads it."""

    name: str  # as the header or the table names it ('Job-KXPQRS', '.NET 8.0', 'Mono'); '' when neither does
    line: str | None  # its runtime line in the header
    runtime: str | None  # '.NET 8.0.3', 'Mono 6.12.0', '.NET Framework 4.8.1'; the Runtime column's '.NET 8.0'
    family: str  # CORE, FRAMEWORK or MONO
    toolchain: str  # OWN_PROCESS, IN_PROCESS or NATIVE_AOT
    arch: str | None  # 'x64', 'arm64', 'x86', 'arm' as the line or Platform says; None when neither does
    isa_level: str | None
    isa_why: str
    switches: tuple[str, ...] = ()  # the runtime switches the job set, as printed ('DOTNET_EnableAVX512F=0')


def runtime_of(line: str | None) -> str | None:
    """'.NET Core 5.0.4 (CoreCLR …), X64 RyuJIT' -> '.NET Core 5.0.4'; '.NET 8.0.0 (8.0.23.53103), X64 RyuJIT AVX2' ->
    '.NET 8.0.0'; 'Mono 6.12.0 (Visual Studio), X64' -> 'Mono 6.12.0'."""
    m = _RUNTIME.match((line or "").strip())
    return m.group(1) if m else None


def family_of(text: str) -> str:
    """The runtime family a job line or Runtime column names ('Clr': BenchmarkDotNet 0.11's name of .NET Framework)."""
    if re.match(r"\s*Mono\b", text) or re.search(r"\bMono \d", text):
        return MONO
    if re.match(r"\s*(\.NET Framework|\.NET 4\.|net4\d|Clr\b)", text, re.I):
        return FRAMEWORK
    return CORE


def line_isa(line: str | None) -> tuple[str | None, str]:
    """(level, the instruction set as the line prints it) from a job line; (None, '') when it names none."""
    for pattern, level in JOB_LINE_ISA:
        if line and (m := pattern.search(line)):
            return level, m.group(0)
    return None, ""


def isa_level_of(job_line: str | None, cpu: str | None) -> tuple[str | None, str]:
    """(level, why) from the job line's instruction set, else the CPU's (cpu_models.toml [[printed_names]]); (None,
    why not) when neither says."""
    level, printed = line_isa(job_line)
    if level:
        return level, f"the job line says {printed}"
    found = read_cpu(cpu)
    if found.vector_isa:
        return VECTOR_ISA_LEVEL[found.vector_isa], f"{found.name} CPU ({found.vector_isa})"
    return None, "the header names no instruction set and no CPU this import knows"


def read_job(name: str, line: str | None, columns: dict[str, str], cpu: PrintedCpu, isa: IsaTable) -> JobReading:
    """The job named `name` whose header line is `line` (None: not found), with its job columns and the header's job
    settings (`columns`: 'Runtime', 'Toolchain', 'EnvironmentVariables', 'Platform', …, as printed)."""
    said = " ".join(filter(None, (name, line, columns.get("Runtime"), columns.get("Toolchain"))))
    runtime = runtime_of(line) or runtime_of(columns.get("Runtime")) or runtime_of(name)
    family = family_of(line or columns.get("Runtime") or name or "")
    toolchain = OWN_PROCESS
    if re.search(r"Native ?AOT|CoreRT", said, re.I):
        toolchain = NATIVE_AOT
    elif re.search(r"InProcess", said, re.I):
        toolchain = IN_PROCESS
    platform = re.search(r",\s*(X64|X86|Arm64|Arm)\b", line or "") or re.fullmatch(
        r"\s*(X64|X86|Arm64|Arm)\s*", columns.get("Platform", "")
    )
    arch = _ARCH[platform.group(1).lower()] if platform else None
    switches = job_switches(columns)
    level, why = _level(line, switches, cpu, arch, isa)
    return JobReading(name, line, runtime, family, toolchain, arch, level, why, switches)


def job_switches(columns: dict[str, str]) -> tuple[str, ...]:
    """The runtime switches (DOTNET_*, COMPlus_*) of a job's EnvironmentVariables column or setting, as printed."""
    return tuple(m.group(0) for m in _SWITCH.finditer(columns.get("EnvironmentVariables", "")))


def requested_level(switches: tuple[str, ...], isa: IsaTable) -> str | None:
    """The ISA level the job's switches ask for: the lowest any of them names (lab.toml [isa_switches] of .NET, either
    prefix; OTHER_SWITCHES), None when none is an ISA switch."""
    known = dict(OTHER_SWITCHES)
    for runtime, table in isa.switches.items():
        if runtime.startswith(".NET."):
            for level, environment in table.items():
                known |= {(re.sub(r"^(DOTNET|COMPlus)_", "", k), v): level for k, v in environment.items()}
    asked = [known[(m.group(1), m.group(2))] for s in switches if (m := _SWITCH.match(s)) and (m[1], m[2]) in known]
    order = level_order()
    return max(asked, key=order.index) if asked else None


def _level(
    line: str | None, switches: tuple[str, ...], cpu: PrintedCpu, arch: str | None, isa: IsaTable
) -> tuple[str | None, str]:
    """(level, why): the line's instruction set (what took effect), else the switches the job set (what it asked), else
    an Arm64 job's AdvSimd, else the CPU's widest vector instruction set where the CPU is of the job's architecture."""
    printed_level, printed = line_isa(line)
    asked = requested_level(switches, isa)
    set_by = f"the job sets {', '.join(switches)}" if switches else ""
    if arch == "arm64" and asked not in (None, "native", "scalar"):
        asked = None  # an x64 switch on an Arm64 job: arm64 has native and scalar only
    if printed_level:
        if asked and asked != printed_level:
            return printed_level, f"the job line says {printed} ({set_by}, asking {asked}: the line is where it ran)"
        return printed_level, f"the job line says {printed}" + (f" ({set_by})" if asked else "")
    if asked:
        return asked, f"{set_by} (its line names no instruction set)"
    if arch == "arm64":
        return "native", "an Arm64 job: AdvSimd is part of every arm64 CPU"
    if cpu.vector_isa and (arch is None or cpu.arch in (None, _CPU_ARCH[arch])):
        return VECTOR_ISA_LEVEL[cpu.vector_isa], f"{cpu.name} CPU ({cpu.vector_isa})"
    return None, "the header names no instruction set and no CPU this import knows"
