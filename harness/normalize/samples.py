"""The lab contract's language-neutral raw format → CellOutcome.

A lab without BenchmarkDotNet (lab/reference-node, and any lab that follows) leaves in each cell folder: env.json (the
measured process's runtime, arch, CPU set and ISA readback), verification.json, cell.json (what ran: library, version,
payload form, dataset sha256, phase timings, `raw_report`), and the raw report it names, with at least

    {"engine": {"name", "version"}, "iterations_ns": [per-operation time of each measured iteration, ns],
     "allocated_bytes_per_op": bytes or null}

Each iteration is the time of a batch of calls divided by the calls, as BenchmarkDotNet's are; the process's statistics
are taken over them. A cell of a paired process (the `paired` verb: several cells of a group in alternating bursts) has
one iteration per round of bursts, and its report's `paired` object gives the detail (calls per burst, the overhead
subtracted, each burst's position in its round, collections); the process's own process.json is in the folder above.
A single-shot cell (the `shot` verb: one fresh process) has one iteration per timed call, and its report's
`single_shot` object gives the warm-up and the resident set before the timed calls and at their peak.
"""

from __future__ import annotations

import pathlib
import re

from harness.model.errors import CellError
from harness.model.folder.lab_files import ProcessRecord, read_process
from harness.model.json_value import JsonMapping, JsonObject, JsonValue, as_array, as_object
from harness.model.outcomes import CellOutcome
from harness.normalize.cell_files import CellFiles, read_cell
from harness.normalize.common import json_array, json_number, json_object, statistics_from_times


def normalize_samples_cell(cell_dir: pathlib.Path) -> CellOutcome:
    """Reads one finished cell folder of a lab whose raw_format is "samples"; a member of the report of another type
    than the format's is a CellError naming it."""
    files = read_cell(cell_dir)
    report = files.raw_report()
    where = files.cell.raw_report
    iterations = json_array(report.get("iterations_ns") or [], f"{where}'s iterations_ns")
    times = [float(json_number(t, f"an item of {where}'s iterations_ns")) for t in iterations]
    engine = json_object(report.get("engine") or {}, f"{where}'s engine")
    paired, shot = report.get("paired"), report.get("single_shot")
    extra: JsonObject = {}
    if shot is not None:  # the `shot` verb: one fresh process, its timed calls and its resident sets
        shot = json_object(shot, f"{where}'s single_shot")
        extra = {
            "rss_before_bytes": shot.get("rss_before_bytes"),
            "peak_rss_bytes": shot.get("peak_rss_bytes"),
            "peak_rss_of": shot.get("peak_rss_of"),
            "warmup_dataset": shot.get("warmup_dataset"),
            "warmup_calls": shot.get("warmup_calls"),
            "start_to_main_ms": process.start_to_main_ms if (process := read_process(cell_dir)) else None,
        }
    if paired is not None:
        paired = json_object(paired, f"{where}'s paired")
        process = read_process(cell_dir.parent)  # a paired process's own file, above its cells' folders
        timings = files.cell.timings_ms
        members = max(len(json_array(paired.get("members") or [], f"{where}'s paired.members")), 1)
        handover = _handover(process, members) if process else {}
        calls = json_number(paired.get("calls_per_burst") or 0, f"{where}'s paired.calls_per_burst")
        extra = {
            "burst_ns": list(times),
            "native_anchor_ns": _anchor_times(paired.get("native_anchors"), len(times)),
            "native_anchors_sha256": _anchor_library(paired),
            "bursts_ms": timings.get("bursts_ms"),
            "gen0_collections": paired.get("gen0_collections"),
            "gen1_collections": paired.get("gen1_collections"),
            "gen2_collections": paired.get("gen2_collections"),
            "total_operations": calls * len(times) or None,
            # the process's start, shared by its cells like its wall time (rows sum to the process once)
            "start_to_main_ms": (process.start_to_main_ms or 0) / members if process else None,
            "rounds_compilations": _rounds_compilations(process) if process else None,
            **handover,
        }
    return cell_outcome(
        files,
        times,
        f"{engine.get('name', 'unknown')} {engine.get('version', '')}".strip(),
        report.get("allocated_bytes_per_op"),
        extra,
    )


def _anchor_times(anchors: JsonValue, rounds: int) -> JsonObject | None:
    """The native anchors' per-round times (anchor → one time per round, ns), when the process timed them: one positive
    time per round each."""
    if anchors is None:
        return None
    times = {str(k): _positive_times(v) for k, v in as_object(anchors).items()}
    if not isinstance(anchors, dict) or not all(ts is not None and len(ts) == rounds for ts in times.values()):
        raise CellError(
            "the report's native_anchors are not one positive time per round for each anchor",
            "see the process's log; rerun the cell",
        )
    return {k: list(ts or ()) for k, ts in times.items()}


def _positive_times(values: JsonValue) -> list[float] | None:
    """`values` as floats when it is a list of positive numbers, else None."""
    times = [float(t) for t in as_array(values) if isinstance(t, (int, float)) and t > 0]
    return times if isinstance(values, list) and len(times) == len(values) else None


def _rounds_compilations(process: ProcessRecord) -> int | None:
    """The compilations while the process's rounds were timed: the last of process.json's `rounds_compilations` (counted
    from the warm-up's end at each round's start, then at the end), or None where the lab did not count them."""
    counts = process.rounds_compilations
    if counts is None:
        return None
    if not counts or not all(c >= 0 for c in counts) or counts != sorted(counts):
        raise CellError(
            "process.json's rounds_compilations is not a growing count of compilations, one per round and one at end",
            "see the process's log; rerun the cell",
        )
    return counts[-1]


def _handover(process: ProcessRecord, members: int) -> dict[str, float | None]:
    """A handed-over process's wait for its hand-over and its re-warm after it (process.json), each cell's share; both
    None for a process that was not handed over (no handover_wait_ms)."""
    wait, rewarm, extra = process.handover_wait_ms, process.rewarm_ms, process.extra_rounds_ms
    if wait is None:
        return {"handover_wait_ms": None, "rewarm_ms": None, "extra_rounds_ms": None}
    if rewarm is None or wait < 0 or rewarm < 0:  # types and finiteness: ProcessRecord
        raise CellError(
            "process.json's handover_wait_ms and rewarm_ms are not two non-negative times in ms",
            "see the process's log; rerun the cell",
        )
    if extra is not None and extra < 0:
        raise CellError("process.json's extra_rounds_ms is a negative time", "see the process's log; rerun the cell")
    return {
        "handover_wait_ms": float(wait) / members,
        "rewarm_ms": float(rewarm or 0) / members,
        "extra_rounds_ms": float(extra or 0) / members,
    }


def _anchor_library(paired: JsonMapping) -> str | None:
    """The sha256 of the anchors' library: present exactly when the process timed them."""
    sha = paired.get("native_anchors_sha256")
    if (paired.get("native_anchors") is None) != (sha is None) or not (
        sha is None or (isinstance(sha, str) and re.fullmatch("[0-9a-f]{64}", sha))
    ):
        raise CellError(
            "the report's native_anchors_sha256 is not the sha256 of the anchors it timed",
            "see the process's log; rerun the cell",
        )
    return sha


def cell_outcome(
    files: CellFiles,
    times: list[float],
    engine_version: str,
    allocated_bytes_per_op: JsonValue,
    extra: JsonObject | None = None,
) -> CellOutcome:
    """A cell's outcome from the contract's three files and its iteration times (ns per operation), whatever raw format
    they came from (this module's samples, Google Benchmark's JSON in gbench.py); `allocated_bytes_per_op` as the raw
    report gives it (None: not counted)."""
    if not times or min(times) <= 0:
        raise CellError(
            f"{files.cell.raw_report} holds no positive iteration times",
            "see the cell's log for the lab's timing output",
        )
    timings = files.cell.timings_ms
    fields: JsonObject = {
        **files.base_fields(engine_version),
        "allocated_bytes_per_op": allocated_bytes_per_op,
        "verify_ms": timings.get("verify_ms"),
        "prewarm_ms": timings.get("prewarm_ms"),
        "prewarm_compilations": files.cell.prewarm_compilations,
        "invocation_count": files.cell.invocation_count,
        **(extra or {}),
    }
    return CellOutcome(
        fields=fields,
        statistics=statistics_from_times(times),
        verification=files.verification.verification(),
        isa_flags=dict(files.env.isa),
        settings_readback=dict(files.env.settings),
    )
