"""The files a fake lab process writes, in the shapes the lab contract gives them: a cold cell's hyperfine results, and
for a single-shot or a paired process the samples format's cell.json and samples.json with the env and verification
records beside them. They are separate from harness/backends/fake.py so that the fake backend holds what it simulates
(switches, failures, each process's own offset, the clock) and this module only what each file holds.
"""

from __future__ import annotations

import json
import pathlib
import zlib

from harness.model.cells import Cell, ShotSettings
from harness.model.json_value import JsonMapping, JsonObject, JsonValue


def process_offset(key: str, spread: float) -> float:
    """A deterministic stand-in for a fresh process's own speed: 1 ± spread, fixed by the key."""
    return 1.0 + spread * ((zlib.crc32(key.encode()) % 2001) / 1000.0 - 1.0)


def _samples_cell(cell: Cell, variant: JsonMapping, invocations: int, timings_ms: dict[str, float]) -> JsonObject:
    """A cell.json of the lab contract's samples format, for a fake process of `cell`."""
    return {
        "schema_version": 2,
        "status": "measured",
        "cell": f"{cell.variant}/{cell.dataset}/{cell.operation}",
        "library": variant.get("library", "fake"),
        "library_version": variant.get("library_version", "1.0"),
        "payload_form": variant.get("payload_form", "string"),
        "model_type": "MyClass",
        "dataset_sha256": "0" * 64,
        "invocation_count": invocations,
        "timings_ms": dict(timings_ms),
        "raw_report": "samples.json",
    }


def verification_record(cell: Cell, failed: bool, *, round_trip: str | None = "passed", detail: str = "") -> JsonObject:
    """A verification.json: passed, or failed with three fields that differ (`detail` names the first)."""
    return {
        "variant": cell.variant,
        "dataset": cell.dataset,
        "status": "failed" if failed else "passed",
        "mismatch_count": 3 if failed else 0,
        "round_trip": round_trip,
        "message": f"3 field(s) differ from the dataset{detail}" if failed else "matches",
    }


def scale_report(report_path: pathlib.Path, factor: float) -> None:
    """Multiplies the captured timings, so variants differ as real ones would."""
    report = json.loads(report_path.read_text())
    stats = report["Benchmarks"][0]["Statistics"]
    for key in ("Mean", "Median", "Min", "Max", "StandardError", "StandardDeviation"):
        stats[key] *= factor
    report_path.write_text(json.dumps(report))


def bdn_cell_files(
    described: JsonObject, cell: Cell, variant: JsonMapping, env: JsonObject, *, failed: bool
) -> dict[str, JsonObject]:
    """The files of one steady-state process beside its BenchmarkDotNet report, by name: the captured cell.json
    (`described`, updated in place) made `cell`'s of `variant`, the env record and the verification record."""
    described.update(
        variant=cell.variant,
        dataset=cell.dataset,
        operation=cell.operation,
        cell=f"{cell.variant}/{cell.dataset}/{cell.operation}",
        library=variant.get("library", described["library"]),
        payload_form=variant.get("payload_form", described["payload_form"]),
    )
    return {
        "cell.json": described,
        "env.json": env,
        "verification.json": verification_record(cell, failed, detail=": MyInteger: expected 123, got 0"),
    }


def samples_cell_files(
    cell: Cell, variant: JsonMapping, env: JsonObject, times: list[float], *, failed: bool
) -> dict[str, JsonObject]:
    """The files of one steady-state process of a lab whose raw format is the contract's samples (a lab without
    BenchmarkDotNet), by name: its iteration times, its cell, env and verification records."""
    return {
        "samples.json": {
            "schema_version": 1,
            "engine": {"name": "fake samples", "version": "1"},
            "iterations_ns": list(times),
            "allocated_bytes_per_op": None,
        },
        "cell.json": _samples_cell(cell, variant, 1000, {"verify_ms": 5.0, "prewarm_ms": 300.0}),
        "env.json": env,
        "verification.json": verification_record(cell, failed, round_trip=None),
    }


def write_files(folder: pathlib.Path, files: JsonMapping) -> None:
    """Writes each file of `files` (name → its JSON content) into `folder`."""
    for name, content in files.items():
        (folder / name).write_text(json.dumps(content))


def cold_results(cell_id: str, runs: int, scale: float, spread: float) -> list[JsonObject]:
    """hyperfine's results for a cold cell: the whole process takes 60 ms × scale, 45 ms of it before the call, each run
    ± the process spread (without one, 0 to 2 % more by run)."""

    def times(ms: float) -> list[JsonValue]:
        return [
            ms / 1000 * (process_offset(f"{cell_id}/{i}", spread) if spread else 1.0 + 0.01 * (i % 3))
            for i in range(runs)
        ]

    return [
        {"command": "once", "times": times(60 * scale)},
        {"command": "prepare-only", "times": times(45 * scale)},
    ]


def shot_files(
    cell: Cell,
    shot: ShotSettings,
    variant: JsonMapping,
    env: JsonObject,
    *,
    scale: float,
    offset: float,
    failed: bool,
) -> dict[str, JsonObject]:
    """The files of one single-shot process, by name: `calls` timed calls of 1 ms × scale × offset, a resident set of
    50 MiB before them and 50 + 10 × scale MiB at their peak."""
    return {
        "samples.json": {
            "schema_version": 1,
            "engine": {"name": "fake single-shot", "version": "1"},
            "iterations_ns": [1e6 * scale * offset * (1 + 0.01 * k) for k in range(shot.calls)],
            "allocated_bytes_per_op": 1000.0 * scale,
            "single_shot": {
                "calls": shot.calls,
                "warmup_dataset": shot.warmup_dataset,
                "warmup_calls": shot.warmup_calls,
                "rss_before_bytes": 50 << 20,
                "peak_rss_bytes": (50 + round(10 * scale)) << 20,
                "peak_rss_of": "timed-calls",
            },
        },
        "cell.json": _samples_cell(cell, variant, shot.calls, {"load_ms": 10.0, "warmup_ms": 5.0, "verify_ms": 5.0}),
        "process.json": {"schema_version": 1, "start_to_main_ms": 50.0},
        "env.json": env,
        "verification.json": {
            "variant": cell.variant,
            "dataset": cell.dataset,
            "status": "failed" if failed else "passed",
            "message": "3 field(s) differ from the dataset" if failed else "matches",
        },
    }


def paired_member_files(
    cell: Cell,
    members: list[str],
    variant: JsonMapping,
    env: JsonObject,
    *,
    times: list[float],
    rounds: int,
    failed: bool,
) -> dict[str, JsonObject]:
    """The files of one member of a paired process, by name: its burst times, the process's `members` (cell ids) and
    its own cell, env and verification records."""
    return {
        "samples.json": {
            "schema_version": 1,
            "engine": {"name": "fake paired bursts", "version": "1"},
            "iterations_ns": list(times),
            "allocated_bytes_per_op": 400.0,
            "paired": {
                "rounds": rounds,
                "calls_per_burst": 1000,
                "members": list(members),
                "gen0_collections": 1,
                "gen1_collections": 0,
                "gen2_collections": 0,
            },
        },
        "cell.json": {
            **_samples_cell(cell, variant, 1000, {"verify_ms": 5.0, "prewarm_ms": 300.0, "bursts_ms": 100.0}),
            "prewarm_compilations": 1000,
        },
        "env.json": env,
        "verification.json": verification_record(cell, failed),
    }
