"""Fixed calibration workloads, timed on the lab's CPUs before each ISA level and at the end of a run.

Each does the same work every time, so a change in its time between two calibrations is the machine
drifting, not the lab. Two kinds, because they see different noise: `sha256` (SHA-256 of a fixed
32 MiB buffer, OpenSSL's C code through hashlib) stays in the core and its L1 cache, so it tracks
the clock; `memory` (numpy gathers at fixed pseudo-random positions of a 128 MiB array) misses
every cache, so it tracks the memory system that other guests share. Measured here, the first
stayed within 1% while JSON processes ran 1.7× slower in bursts. Each runs in its own pinned process.
"""

from __future__ import annotations

import datetime as _dt
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence

from harness.backends.base import Backend
from harness.model.folder.run_folder import CALIBRATION_FILE
from harness.model.folder.run_records import CalibrationRecord
from harness.model.folder.store import RunStore
from harness.planning.pinning import taskset_prefix

#: Repetitions per calibration workload; 15–80 ms each on a 2020s server core.
REPETITIONS = 40

#: The workloads by name: each prints one duration in milliseconds per repetition.
WORKLOADS = {
    "sha256": (
        "import hashlib, time\n"
        "data = bytes(range(256)) * 131072\n"
        f"for _ in range({REPETITIONS}):\n"
        "    t = time.perf_counter(); hashlib.sha256(data).digest(); print((time.perf_counter() - t) * 1e3)\n"
    ),
    "memory": (
        "import time, numpy as np\n"
        "data = np.arange(16 * 2**20, dtype=np.int64)\n"  # 128 MiB
        "index = np.random.default_rng(7).integers(0, data.size, 2**22)\n"
        f"for _ in range({REPETITIONS}):\n"
        "    t = time.perf_counter(); data.take(index).sum(); print((time.perf_counter() - t) * 1e3)\n"
    ),
}


def summarize(label: str, cpuset: str, workload: str, samples_ms: list[float]) -> CalibrationRecord:
    """Median and coefficient of variation of the repetitions."""
    mean = statistics.fmean(samples_ms)
    cv = statistics.stdev(samples_ms) / mean if len(samples_ms) > 1 else 0.0
    return CalibrationRecord(
        label,
        cpuset,
        workload,
        _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        round(statistics.median(samples_ms), 4),
        round(cv, 4),
        len(samples_ms),
    )


def calibrate(label: str, cpuset: str, workload: str, timeout_s: float = 120) -> CalibrationRecord | None:
    """Times one workload on `cpuset`; None when it could not run (the run goes on without it)."""
    try:
        done = subprocess.run(
            [*taskset_prefix(cpuset), sys.executable, "-c", WORKLOADS[workload]],
            capture_output=True,
            text=True,
            timeout=timeout_s,
            check=True,
        )
        samples = [float(line) for line in done.stdout.split()]
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    return summarize(label, cpuset, workload, samples) if samples else None


def calibrate_lab_cpus(
    backend: Backend, store: RunStore, lab_cpus: Sequence[str], label: str, say: Callable[[str], None]
) -> None:
    """Times every workload on every lab CPU, nothing running beside it (the backend stops warming first), and keeps
    each result in the run folder (calibration.jsonl) and the time it took (run.json's phases)."""
    backend.stop_warming()
    started = time.monotonic()
    try:
        for cpu in lab_cpus:
            for workload in WORKLOADS:
                result = calibrate(label, cpu, workload)
                if result is not None:
                    store.append_json_line(CALIBRATION_FILE, result.to_dict())
                    say(
                        f"calibration {label}, {workload} on CPU {cpu}: {result.median_ms:.2f} ms "
                        f"(CV {100 * result.cv:.1f}%) [{time.monotonic() - started:.1f} s]"
                    )
    finally:
        store.record_phase("calibration", started, f"calibration workloads {label}")
