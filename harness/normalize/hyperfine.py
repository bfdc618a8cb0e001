"""hyperfine cold-start output → CellOutcome.

Reads what a cold cell leaves in its folder (harness/backends/processes.py `run_cold`): hyperfine.json with two
commands, `once` (a whole process: runtime start, dataset read, binding, the first call) and `prepare-only` (the same
without the call), and rss.json (peak resident set of extra runs, each read by the lab itself). Every timed run is its
own process, so the interval over runs is already one over processes. The runtime, libraries and ISA readback come
from the build's probe (`env` under the same switches), the verification from the lab's `verify` verb.
"""

from __future__ import annotations

import json
import pathlib
import statistics

from harness.model.arch import IsaFlags
from harness.model.errors import CellError
from harness.model.folder.environment_record import LabEnvReport
from harness.model.json_value import JsonMapping, JsonObject, as_text
from harness.model.outcomes import RSS_FILE, CellOutcome, Verification
from harness.normalize.common import (
    json_array,
    json_number,
    json_object,
    json_objects,
    rss_readings,
    statistics_from_times,
)

#: The two commands of a cold cell's hyperfine run, by --command-name.
ONCE, PREPARE_ONLY = "once", "prepare-only"


def _by_command(report: JsonObject) -> dict[str, JsonObject]:
    """hyperfine.json's results by their command's name (--command-name)."""
    results = json_objects(report.get("results", []), "hyperfine.json's results")
    return {command: r for r in results if (command := as_text(r.get("command"))) is not None}


def _times_ns(results: dict[str, JsonObject], name: str) -> list[float]:
    times = results[name].get("times") if name in results else None
    if not times:
        raise CellError(f"hyperfine.json has no timed runs of '{name}'", "see the cell's log for hyperfine's output")
    what = f"hyperfine.json's times of '{name}'"
    return [json_number(t, f"an item of {what}") * 1e9 for t in json_array(times, what)]


def normalize_cold_cell(
    cell_dir: pathlib.Path,
    env: LabEnvReport,
    variant: JsonMapping,
    verification: JsonMapping,
    isa_flags: IsaFlags,
) -> CellOutcome:
    """One cold cell folder, with what the probe and the lab's listing and verify verb said about its build (the
    lab's variant and verification answers as it gave them; a message that is not a text reads as none)."""
    try:
        report = json.loads((cell_dir / "hyperfine.json").read_text())
        rss_report = rss_readings(json.loads((cell_dir / RSS_FILE).read_text()), cell_dir / RSS_FILE)
        rss = rss_report["peak_rss_bytes"]
    except (OSError, ValueError, KeyError, RecursionError) as e:  # ValueError: not JSON, or not UTF-8
        raise CellError(
            f"the cold cell left no readable hyperfine.json / rss.json in {cell_dir}: {e}", "see the cell's log"
        ) from e
    results = _by_command(json_object(report, "hyperfine.json"))
    once, prepare = _times_ns(results, ONCE), _times_ns(results, PREPARE_ONLY)
    fields: JsonObject = {
        "language": env["language"],
        "runtime": env["runtime"],
        "runtime_version": env["runtime_version"],
        "runtime_switches": dict(env.get("runtime_switches") or {}),
        "engine_version": "hyperfine",
        "library": variant.get("library"),
        "library_version": variant.get("library_version"),
        "payload_form": variant.get("payload_form"),
        "arch": env["arch"],
        # The CPUs the timed processes were allowed on, read back by the peak-RSS runs (one set, or the differing sets).
        "cpuset_effective": ";".join(sorted({c for c in rss_report.get("cpus_allowed") or [] if c})) or None,
        "raw_path": "hyperfine.json",
        "prepare_median_ns": statistics.median(prepare),
        "peak_rss_bytes": int(statistics.median(rss)) if rss else None,
        "payload_bytes": verification.get("payload_bytes") or None,  # 0 or absent: not known
    }
    status = "passed" if verification.get("status") == "passed" else "failed"
    message = as_text(verification.get("message", "no verification result"))
    return CellOutcome(
        fields=fields,
        statistics=statistics_from_times(once),
        verification=Verification(status, "no verification result" if message is None else message),
        isa_flags=dict(isa_flags),
    )
