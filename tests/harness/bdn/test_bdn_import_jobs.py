"""`just import` reads each job of a report where it ran: jobs that differ by ISA at their own level, by toolchain
(in-process, Native AOT) as jobs of their own, an Arm64 job as an arm64 figure, a .NET Framework or Mono job as claims
that cannot be reproduced (never a .NET stand-in), and the published CPU's microarchitecture from its name
(harness/config/cpu_models.toml [[printed_names]])."""

from __future__ import annotations

import dataclasses

import pytest

from harness.bdn.cpu import read_cpu
from harness.bdn.importer import import_reports
from harness.bdn.jobs import isa_level_of
from harness.cli import main
from tests.harness.bdn.test_bdn_import import DOTNET, ISA, _loads


def _header(cpu: str, *jobs: str, version: str = "0.13.12", sdk: str = "8.0.204") -> str:
    lines = [f"  {job}" for job in jobs]
    return (
        "\n".join(
            [
                "```",
                "",
                f"BenchmarkDotNet v{version}, Ubuntu 22.04.4 LTS (Jammy Jellyfish)",
                cpu,
                f".NET SDK {sdk}",
                *lines,
            ]
        )
        + "\n\n\n```\n"
    )


def _import(tmp_path, text: str, lab=DOTNET) -> dict:
    report = tmp_path / "JsonLab.Bench.Jobs-report-github.md"
    report.write_text(text)
    return _loads(import_reports([report], "950", lab, ISA).text)


def _hardware_of(data: dict, method: str, scenario_part: str = "") -> dict:
    claim = next(c for c in data["claims"] if c["published_variant"] == method and scenario_part in c["scenario"])
    return data["hardware"][claim["hardware"]]


XEON = "Intel Xeon Platinum 8370C CPU 2.80GHz, 1 CPU, 4 logical and 2 physical cores"
AVX512_LINE = ".NET 8.0.4 (8.0.424.16909), X64 RyuJIT AVX-512F+CD+BW+DQ+VL+VBMI"
AVX2_LINE = ".NET 8.0.4 (8.0.424.16909), X64 RyuJIT AVX2"

#: Two jobs of one runtime, the second with AVX-512 switched off. Their ids are generated (implicit), so BenchmarkDotNet
#: prints no Job column: only EnvironmentVariables tells the rows apart.
ISA_JOBS = _header(XEON, f"[Host]     : {AVX512_LINE}", f"Job-QWERTY : {AVX512_LINE}", f"Job-ASDFGH : {AVX2_LINE}") + (
    """| Method | EnvironmentVariables   | Mean     | Error    | StdDev   | Ratio |
|------- |----------------------- |---------:|---------:|---------:|------:|
| Parse  | Empty                  | 10.10 μs | 0.050 μs | 0.047 μs |  1.00 |
| Parse  | DOTNET_EnableAVX512F=0 | 12.40 μs | 0.061 μs | 0.057 μs |  1.23 |
"""
)


def test_two_jobs_that_differ_only_in_their_isa_are_each_read_at_their_own_level(tmp_path):
    data = _import(tmp_path, ISA_JOBS)
    levels = {c["published_mean"]: data["hardware"][c["hardware"]]["isa_level"] for c in data["claims"]}
    assert levels == {"10.10 μs": "native", "12.40 μs": "no-avx512"}
    assert {h["runtime"] for h in data["hardware"].values()} == {".NET 8.0.4"}  # the runtime found on both lines


def test_named_isa_jobs_and_a_switch_on_a_line_without_instruction_sets(tmp_path):
    named = ISA_JOBS.replace("Job-QWERTY", "AVX-512   ").replace("Job-ASDFGH", "AVX2      ")
    named = named.replace("| Method | Env", "| Method | Job     | Env").replace(
        "|------- |---", "|------- |-------- |---"
    )
    named = named.replace("| Parse  | Empty", "| Parse  | AVX-512 | Empty").replace(
        "| Parse  | DOTNET", "| Parse  | AVX2    | DOTNET"
    )
    data = _import(tmp_path, named)
    assert sorted(h["isa_level"] for h in data["hardware"].values()) == ["native", "no-avx512"]
    old = ISA_JOBS.replace(" AVX-512F+CD+BW+DQ+VL+VBMI", "").replace(" AVX2\n", "\n")  # 0.12's lines name no ISA
    data = _import(tmp_path, old)
    asked = _hardware_of(data, "Parse")  # both rows: the first claim is the job without switches
    assert {h["isa_level"] for h in data["hardware"].values()} == {"native", "no-avx512"}
    assert asked["isa_level"] == "native"  # an Ice Lake CPU without switches: everything it has


MONO = _header(
    "AMD EPYC 7763, 1 CPU, 4 logical and 2 physical cores",
    f"[Host]     : {AVX2_LINE}",
    f"Job-KXPQRS : {AVX2_LINE}",
    "Job-YTWLMN : Mono 6.12.0 (Visual Studio), X64 VectorSize=256",
) + (
    """| Method     | Runtime  | Mean     | Error    | StdDev   | Ratio |
|----------- |--------- |---------:|---------:|---------:|------:|
| Newtonsoft | .NET 8.0 | 21.40 μs | 0.210 μs | 0.196 μs |  1.00 |
| Stj        | .NET 8.0 | 11.10 μs | 0.101 μs | 0.094 μs |  0.52 |
| Newtonsoft | Mono     | 45.02 μs | 0.410 μs | 0.383 μs |  1.00 |
| Stj        | Mono     | 30.77 μs | 0.280 μs | 0.262 μs |  0.68 |
"""
)


def test_a_mono_job_is_claims_that_cannot_be_reproduced_never_a_dotnet_stand_in(tmp_path):
    data = _import(tmp_path, MONO)
    row = next(c for c in data["claims"] if c.get("published_mean") == "30.77 μs")  # Stj on Mono
    mono = data["hardware"][row["hardware"]]
    assert mono["lab_runtimes"] == [] and mono["runtime"] == "Mono 6.12.0"  # was 8.0.0, 8.0.31: a silent stand-in
    claims = [c for c in data["claims"] if "Mono" in c["scenario"]]
    assert len(claims) == 2 and all(c["cannot_reproduce"].startswith("runtime not served: Mono 6.12.0") for c in claims)
    assert all("benchmark" not in c for c in claims) and claims[1]["ratio"] == 0.68
    assert len(data["benchmarks"]) == 2  # the .NET job's only
    assert _hardware_of(data, "Stj", ".NET")["lab_runtimes"] == ["8.0.0", "8.0.31"]


def test_a_dotnet_framework_job_cannot_be_reproduced_either(tmp_path):
    text = MONO.replace(
        "Mono 6.12.0 (Visual Studio), X64 VectorSize=256",
        ".NET Framework 4.8.1 (4.8.9181.0), X64 RyuJIT VectorSize=256",
    )
    text = text.replace("| Mono     |", "| .NET Framework 4.8 |").replace("| .NET 8.0 |", "| .NET 8.0           |")
    text = text.replace("| Runtime  |", "| Runtime            |").replace("|--------- |", "|------------------- |")
    data = _import(tmp_path, text)
    framework = [c for c in data["claims"] if "Framework" in c["scenario"]]
    assert len(framework) == 2 and all("is .NET Framework" in c["cannot_reproduce"] for c in framework)


AOT = _header(
    "AMD EPYC 7763, 1 CPU, 4 logical and 2 physical cores",
    ".NET 10.0      : .NET 10.0.0 (10.0.25.52411), X64 RyuJIT AVX2",
    "NativeAOT 10.0 : .NET 10.0.0, X64 NativeAOT AVX2",
    version="0.14.0",
    sdk="10.0.100",
) + (
    """| Method | Job            | Runtime        | Mean     | Error    | StdDev   | Ratio |
|------- |--------------- |--------------- |---------:|---------:|---------:|------:|
| Parse  | .NET 10.0      | .NET 10.0      | 14.98 μs | 0.066 μs | 0.055 μs |  1.00 |
| Parse  | NativeAOT 10.0 | NativeAOT 10.0 | 13.51 μs | 0.071 μs | 0.066 μs |  0.90 |
"""
)


def test_a_native_aot_job_cannot_be_reproduced_where_the_lab_s_aot_build_measures_no_steady_state(tmp_path):
    data = _import(tmp_path, AOT)
    aot = next(c for c in data["claims"] if "NativeAOT" in c["scenario"])
    assert "runtime not served" in aot["cannot_reproduce"] and "10.0.12-aot" in aot["cannot_reproduce"]
    assert _hardware_of(data, "Parse", ".NET 10.0")["lab_runtimes"] == ["10.0.12"]  # the JIT job's, as before


def test_a_native_aot_job_maps_to_the_lab_s_aot_build_where_one_measures_steady_state(tmp_path):
    steady = dataclasses.replace(DOTNET.runtimes["10.0.12-aot"], measures=("steady", "cold"))
    lab = dataclasses.replace(DOTNET, runtimes={**DOTNET.runtimes, "10.0.12-aot": steady})
    data = _import(tmp_path, AOT, lab)
    hardware = _hardware_of(data, "Parse", "NativeAOT")
    assert hardware["lab_runtimes"] == ["10.0.12-aot"] and "Native AOT" in hardware["description"]


def test_an_in_process_job_is_a_job_of_its_own_said_so(tmp_path):
    text = _header(XEON, f"Job-ABCDEF : {AVX2_LINE}", f"Job-GHIJKL : {AVX2_LINE}") + (
        """| Method | Toolchain              | Mean     | Error    | StdDev   |
|------- |----------------------- |---------:|---------:|---------:|
| Parse  | Default                | 21.40 μs | 0.210 μs | 0.196 μs |
| Parse  | InProcessEmitToolchain | 20.95 μs | 0.205 μs | 0.192 μs |
"""
    )
    report = tmp_path / "JsonLab.Bench.Jobs-report-github.md"
    report.write_text(text)
    result = import_reports([report], "950", DOTNET, ISA)
    data = _loads(result.text)
    in_process = _hardware_of(data, "Parse", "InProcess")
    assert len(data["hardware"]) == 2 and "in-process" in in_process["description"]
    assert "its own host process" in result.text and in_process["lab_runtimes"] == ["8.0.0", "8.0.31"]


ARM64_LINE = ".NET 8.0.4 (8.0.424.16909), Arm64 RyuJIT AdvSIMD"
ARM64_TABLE = """| Method | Mean     | Error    | StdDev   |
|------- |---------:|---------:|---------:|
| Parse  | 18.20 μs | 0.110 μs | 0.103 μs |
"""


def test_an_arm64_job_under_an_x64_cpu_line_is_an_arm64_figure_whose_cpu_the_user_names(tmp_path):
    text = _header(
        "AMD Ryzen 7 5800H with Radeon Graphics, 1 CPU, 16 logical and 8 physical cores", f"DefaultJob : {ARM64_LINE}"
    )
    data = _import(tmp_path, text + ARM64_TABLE)
    (hardware,) = data["hardware"].values()
    assert hardware["isa_level"] == "native" and "microarchitecture" not in hardware
    assert hardware["cpu_vendor"].startswith("TODO: the vendor of the arm64 CPU") and "apple" in hardware["cpu_vendor"]


def test_an_arm64_job_on_an_apple_cpu_names_its_microarchitecture(tmp_path):
    text = _header("Apple M1 Pro, 1 CPU, 10 logical and 10 physical cores", f"DefaultJob : {ARM64_LINE}")
    (hardware,) = _import(tmp_path, text + ARM64_TABLE)["hardware"].values()
    assert (hardware["microarchitecture"], hardware["isa_level"]) == ("apple-m1", "native")
    assert "cpu_vendor" not in hardware


@pytest.mark.parametrize(
    "cpu, microarchitecture",
    [
        ("AMD Ryzen 7 5800H with Radeon Graphics", "zen3"),
        ("AMD Ryzen 7 2700X", "zen-plus"),
        ("AMD Ryzen 9 7950X 16-Core Processor", "zen4"),
        ("AMD EPYC 7763", "zen3"),
        ("Intel Core i7-6700 CPU 3.40GHz (Skylake)", "skylake"),
        ("Intel Core i7-8559U CPU 2.70GHz (Coffee Lake)", "skylake"),
        ("Intel Core i7-10700 CPU 2.90GHz", "skylake"),
        ("Intel Core i7-1065G7 CPU 1.30GHz", "ice-lake"),
        ("13th Gen Intel Core i9-13905H", "raptor-lake"),
        ("12th Gen Intel Core i7-12700H", "alder-lake"),
        ("Intel Xeon CPU E5-2673 v4 2.30GHz", "broadwell"),
        ("Intel Xeon Platinum 8370C CPU 2.80GHz", "ice-lake"),
        ("Apple M2 Max", "apple-m2"),
        ("AMD Ryzen 7 5700U", None),  # a Zen 2 APU of the 5000 series: only the vendor is certain
        ("Unknown processor", None),
    ],
)
def test_the_cpu_name_gives_its_microarchitecture_from_the_lab_s_table(cpu, microarchitecture):
    assert read_cpu(cpu).microarchitecture == microarchitecture


def test_a_cpu_the_table_knows_by_vendor_only_is_written_with_its_vendor(tmp_path):
    text = _header(
        "AMD Ryzen 7 5700U with Radeon Graphics, 1 CPU, 16 logical and 8 physical cores", f"DefaultJob : {AVX2_LINE}"
    )
    (hardware,) = _import(tmp_path, text + ARM64_TABLE)["hardware"].values()
    assert hardware["cpu_vendor"] == "amd" and "microarchitecture" not in hardware


def test_an_unknown_cpu_without_instruction_sets_on_its_line_leaves_the_isa_level_to_the_user():
    assert isa_level_of(".NET Core 2.2.6 (CoreCLR 4.6.27817.03), 64bit RyuJIT", "Some CPU 2.30GHz") == (
        None,
        "the header names no instruction set and no CPU this import knows",
    )


def test_a_report_of_runtimes_the_lab_does_not_serve_only_is_refused_saying_why(tmp_path, capsys):
    text = _header(XEON, "DefaultJob : Mono 6.12.0 (Visual Studio), X64 VectorSize=256") + ARM64_TABLE
    report = tmp_path / "JsonLab.Bench.Jobs-report-github.md"
    report.write_text(text)
    assert main(["import", str(report), "--out", "-"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "error: every row of the report(s) ran on a runtime the lab does not serve: runtime not served"
    )
    assert "hint: lab dotnet can reproduce none of these figures" in err
