"""BenchmarkDotNet cell output → CellOutcome.

Reads what the dotnet lab's `run` verb leaves in a cell folder: cell.json (what ran), env.json
(the measured process's runtime and ISA readback), verification.json, and BenchmarkDotNet's
full JSON report (kept untouched as the raw result).
"""

from __future__ import annotations

import pathlib
from typing import Any

from harness.model.errors import CellError
from harness.model.folder.lab_files import ProcessRecord, read_process
from harness.model.outcomes import CellOutcome, Statistics
from harness.model.stats.stats import ci_half_width
from harness.normalize.cell_files import CellRecord, read_cell


def statistics_from_bdn(benchmark: dict[str, Any]) -> Statistics:
    """Per-operation statistics from one BenchmarkDotNet report entry, with a 99% CI (BDN prints 99.9%)."""
    s = benchmark.get("Statistics")
    if not s:
        raise CellError(
            "BenchmarkDotNet reported no statistics for this cell", "see the cell's log for the benchmark's error"
        )
    if s["Mean"] <= 0:
        raise CellError(
            "BenchmarkDotNet measured 0 ns per operation after subtracting its overhead: the operation is below "
            "what its loop can resolve on this machine",
            "the raw iterations are in the cell's bdn/ folder; a longer input, or the operation inside a larger one, "
            "is measurable",
        )
    half = ci_half_width(s["N"], s["StandardError"])
    return Statistics(
        n=s["N"],
        mean_ns=s["Mean"],
        median_ns=s["Median"],
        stddev_ns=s["StandardDeviation"] if s["N"] > 1 else None,
        ci99_lower_ns=None if half is None else s["Mean"] - half,
        ci99_upper_ns=None if half is None else s["Mean"] + half,
        min_ns=s["Min"],
        max_ns=s["Max"],
    )


def memory_from_bdn(benchmark: dict[str, Any]) -> dict[str, Any]:
    """Allocation and GC counts (MemoryDiagnoser); None when the diagnoser did not run."""
    m = benchmark.get("Memory") or {}
    return {
        "allocated_bytes_per_op": m.get("BytesAllocatedPerOperation"),
        "gen0_collections": m.get("Gen0Collections"),
        "gen1_collections": m.get("Gen1Collections"),
        "gen2_collections": m.get("Gen2Collections"),
        "total_operations": m.get("TotalOperations"),
    }


def stage_times_ms(benchmark: dict[str, Any]) -> dict[str, float]:
    """Wall time BenchmarkDotNet spent in each stage of one benchmark, from its raw measurements: the measured
    samples (workload actual), and pilot, warm-up, jitting and the overhead stages around them."""
    totals = {
        "bdn_actual_ms": 0.0,
        "bdn_pilot_ms": 0.0,
        "bdn_warmup_ms": 0.0,
        "bdn_overhead_ms": 0.0,
        "bdn_jitting_ms": 0.0,
    }
    for m in benchmark.get("Measurements") or []:
        mode, stage, ms = m.get("IterationMode"), m.get("IterationStage"), m.get("Nanoseconds", 0) / 1e6
        if stage == "Result":
            continue  # derived from the actual iterations, not run again
        if mode == "Overhead":
            totals["bdn_overhead_ms"] += ms
        elif stage in ("Actual", "Pilot", "Warmup", "Jitting"):
            totals[f"bdn_{stage.lower()}_ms"] += ms
    return {k: round(v, 1) for k, v in totals.items()}


def timings_from_lab(cell: CellRecord, process: ProcessRecord | None) -> dict[str, Any]:
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
    host_info = report.get("HostEnvironmentInfo") or {}
    benchmarks = report.get("Benchmarks") or []
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
    fields = {
        **files.base_fields(engine),
        **memory_from_bdn(benchmarks[0]),
        **stage_times_ms(benchmarks[0]),
        **timings_from_lab(files.cell, read_process(cell_dir)),
    }
    return CellOutcome(
        fields=fields,
        statistics=statistics_from_bdn(benchmarks[0]),
        verification=files.verification.verification(),
        isa_flags=dict(files.env.isa),
        settings_readback=dict(files.env.settings),
    )
