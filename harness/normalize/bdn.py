"""BenchmarkDotNet cell output → CellOutcome.

Reads what the dotnet lab's `run` verb leaves in a cell folder: cell.json (what ran), env.json
(the measured process's runtime and ISA readback), verification.json, and BenchmarkDotNet's
full JSON report (kept untouched as the raw result).
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

from harness.errors import CellError
from harness.records import CellOutcome, Statistics, Verification
from harness.stats import ci_half_width


def _read(path: pathlib.Path) -> Any:
    try:
        return json.loads(path.read_text())
    except FileNotFoundError as e:
        raise CellError(f"the lab left no {path.name} in {path.parent}", "see the cell's log; the lab stopped before writing it") from e
    except json.JSONDecodeError as e:
        raise CellError(f"{path} is not valid JSON: {e}", "see the cell's log") from e


def statistics_from_bdn(benchmark: dict[str, Any]) -> Statistics:
    """Per-operation statistics from one BenchmarkDotNet report entry, with a 99% CI (BDN prints 99.9%)."""
    s = benchmark.get("Statistics")
    if not s:
        raise CellError("BenchmarkDotNet reported no statistics for this cell", "see the cell's log for the benchmark's error")
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


def normalize_bdn_cell(cell_dir: pathlib.Path) -> CellOutcome:
    """Reads one finished cell folder."""
    cell = _read(cell_dir / "cell.json")
    env = _read(cell_dir / "env.json")
    verification = _read(cell_dir / "verification.json")
    report = _read(cell_dir / cell["raw_report"])
    benchmarks = report.get("Benchmarks") or []
    if len(benchmarks) != 1:
        raise CellError(f"expected one benchmark in {cell['raw_report']}, found {len(benchmarks)}", "a cell measures exactly one operation")
    fields = {
        "language": env["language"],
        "runtime": env["runtime"],
        "runtime_version": env["runtime_version"],
        "library": cell["library"],
        "library_version": cell["library_version"],
        "dataset_sha256": cell["dataset_sha256"],
        "payload_form": cell["payload_form"],
        "model_type": cell["model_type"],
        "arch": env["arch"],
        "raw_path": cell["raw_report"],
        **memory_from_bdn(benchmarks[0]),
    }
    return CellOutcome(
        fields=fields,
        statistics=statistics_from_bdn(benchmarks[0]),
        verification=Verification(verification["status"], verification["message"],
                                  verification.get("mismatch_count"), verification.get("round_trip")),
        isa_flags=dict(env["isa"]),
    )
