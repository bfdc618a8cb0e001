"""BenchmarkDotNet cell output → CellOutcome.

Reads what the dotnet lab's `run` verb leaves in a cell folder: cell.json (what ran), env.json
(the measured process's runtime and ISA readback), verification.json, and BenchmarkDotNet's
full JSON report (kept untouched as the raw result).
"""

from __future__ import annotations

import pathlib

from harness.model.errors import CellError
from harness.model.folder.field_types import shown
from harness.model.folder.lab_files import ProcessRecord, read_process
from harness.model.json_value import JsonMapping, JsonObject
from harness.model.outcomes import CellOutcome, Statistics
from harness.model.stats.stats import ci_half_width
from harness.normalize.cell_files import CellRecord, read_cell
from harness.normalize.common import REPORT_HINT, json_array, json_number, json_object, json_objects


def statistics_from_bdn(benchmark: JsonMapping) -> Statistics:
    """Per-operation statistics from one BenchmarkDotNet report entry, with a 99% CI (BDN prints 99.9%); a statistic
    that is not a number (N not a count) is a CellError naming it."""
    s = benchmark.get("Statistics")
    if not s:
        raise CellError(
            "BenchmarkDotNet reported no statistics for this cell", "see the cell's log for the benchmark's error"
        )
    stats = json_object(s, "BenchmarkDotNet's Statistics")

    def number(key: str) -> float:
        return json_number(stats.get(key), f"BenchmarkDotNet's Statistics.{key}")

    mean = number("Mean")
    if mean <= 0:
        raise CellError(
            "BenchmarkDotNet measured 0 ns per operation after subtracting its overhead: the operation is below "
            "what its loop can resolve on this machine",
            "the raw iterations are in the cell's bdn/ folder; a longer input, or the operation inside a larger one, "
            "is measurable",
        )
    n = stats.get("N")
    if not isinstance(n, int) or isinstance(n, bool):
        raise CellError(f"BenchmarkDotNet's Statistics.N is {shown(n)}, not a count", REPORT_HINT)
    half = ci_half_width(n, number("StandardError"))
    return Statistics(
        n=n,
        mean_ns=mean,
        median_ns=number("Median"),
        stddev_ns=number("StandardDeviation") if n > 1 else None,
        ci99_lower_ns=None if half is None else mean - half,
        ci99_upper_ns=None if half is None else mean + half,
        min_ns=number("Min"),
        max_ns=number("Max"),
    )


def memory_from_bdn(benchmark: JsonMapping) -> JsonObject:
    """Allocation and GC counts (MemoryDiagnoser), as the report gives them; None when the diagnoser did not run."""
    m = json_object(benchmark.get("Memory") or {}, "BenchmarkDotNet's Memory")
    return {
        "allocated_bytes_per_op": m.get("BytesAllocatedPerOperation"),
        "gen0_collections": m.get("Gen0Collections"),
        "gen1_collections": m.get("Gen1Collections"),
        "gen2_collections": m.get("Gen2Collections"),
        "total_operations": m.get("TotalOperations"),
    }


def stage_times_ms(benchmark: JsonMapping) -> dict[str, float]:
    """Wall time BenchmarkDotNet spent in each stage of one benchmark, from its raw measurements: the measured
    samples (workload actual), and pilot, warm-up, jitting and the overhead stages around them."""
    totals = {
        "bdn_actual_ms": 0.0,
        "bdn_pilot_ms": 0.0,
        "bdn_warmup_ms": 0.0,
        "bdn_overhead_ms": 0.0,
        "bdn_jitting_ms": 0.0,
    }
    for m in json_objects(benchmark.get("Measurements") or [], "BenchmarkDotNet's Measurements"):
        mode, stage = m.get("IterationMode"), m.get("IterationStage")
        ms = json_number(m.get("Nanoseconds", 0), "a BenchmarkDotNet measurement's Nanoseconds") / 1e6
        if stage == "Result":
            continue  # derived from the actual iterations, not run again
        if mode == "Overhead":
            totals["bdn_overhead_ms"] += ms
        elif isinstance(stage, str) and stage in ("Actual", "Pilot", "Warmup", "Jitting"):
            totals[f"bdn_{stage.lower()}_ms"] += ms
    return {k: round(v, 1) for k, v in totals.items()}


def timings_from_lab(cell: CellRecord, process: ProcessRecord | None) -> JsonObject:
    """The lab's own phase timings of a cell (schema 2 of cell.json; absent in older runs)."""
    timings = cell.timings_ms
    return {
        "verify_ms": timings.get("verify_ms"),
        "prewarm_ms": timings.get("prewarm_ms"),
        "prewarm_compilations": cell.prewarm_compilations,
        "bdn_run_ms": timings.get("benchmark_dot_net_ms"),
        "start_to_main_ms": process.start_to_main_ms if process else None,
        "invocation_count": cell.invocation_count,
    }


def normalize_bdn_cell(cell_dir: pathlib.Path) -> CellOutcome:
    """Reads one finished cell folder."""
    files = read_cell(cell_dir)
    report = files.raw_report()
    host_info = json_object(report.get("HostEnvironmentInfo") or {}, f"{files.cell.raw_report}'s HostEnvironmentInfo")
    benchmarks = json_array(report.get("Benchmarks") or [], f"{files.cell.raw_report}'s Benchmarks")
    if len(benchmarks) != 1:
        raise CellError(
            f"expected one benchmark in {files.cell.raw_report}, found {len(benchmarks)}",
            "a cell measures exactly one operation",
        )
    # The measuring engine as it reported itself: BenchmarkDotNet 0.15.8, or 0.14.0 on .NET Core 3.1.
    engine = (
        f"{host_info.get('BenchmarkDotNetCaption', 'BenchmarkDotNet')} "
        f"{host_info.get('BenchmarkDotNetVersion', 'unknown')}"
    )
    benchmark = json_object(benchmarks[0], f"{files.cell.raw_report}'s Benchmarks[0]")
    fields: JsonObject = {
        **files.base_fields(engine),
        **memory_from_bdn(benchmark),
        **stage_times_ms(benchmark),
        **timings_from_lab(files.cell, read_process(cell_dir)),
    }
    return CellOutcome(
        fields=fields,
        statistics=statistics_from_bdn(benchmark),
        verification=files.verification.verification(),
        isa_flags=dict(files.env.isa),
        settings_readback=dict(files.env.settings),
    )
