"""A fixed calibration workload, timed on the lab's CPUs at the start and end of a run and before each ISA level.

The workload (SHA-256 of a fixed 32 MiB buffer, in OpenSSL's C code through hashlib) does the same
work every time, so a change in its time between two calibrations is the machine drifting (another
guest, frequency, thermal), not the lab. It runs in its own process, pinned like a cell.
"""

from __future__ import annotations

import datetime as _dt
import statistics
import subprocess
import sys
from dataclasses import asdict, dataclass
from typing import Any

from harness.defaults import SCHEMA_VERSION
from harness.pinning import taskset_prefix

#: Repetitions per calibration; 15–80 ms each on a 2020s server core (with or without SHA extensions).
REPETITIONS = 40

#: The workload: prints one duration in milliseconds per repetition.
_SCRIPT = (
    "import hashlib, time\n"
    "data = bytes(range(256)) * 131072\n"
    f"for _ in range({REPETITIONS}):\n"
    "    t = time.perf_counter(); hashlib.sha256(data).digest(); print((time.perf_counter() - t) * 1e3)\n"
)


@dataclass(frozen=True)
class Calibration:
    """One timing of the calibration workload on one CPU set."""

    label: str
    cpuset: str
    at: str
    median_ms: float
    cv: float
    repetitions: int
    schema_version: int = SCHEMA_VERSION

    def to_dict(self) -> dict[str, Any]:
        """Plain dict for calibration.jsonl."""
        return asdict(self)


def summarize(label: str, cpuset: str, samples_ms: list[float]) -> Calibration:
    """Median and coefficient of variation of the repetitions."""
    mean = statistics.fmean(samples_ms)
    cv = statistics.stdev(samples_ms) / mean if len(samples_ms) > 1 else 0.0
    return Calibration(label, cpuset, _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
                       round(statistics.median(samples_ms), 4), round(cv, 4), len(samples_ms))


def calibrate(label: str, cpuset: str, timeout_s: float = 120) -> Calibration | None:
    """Times the workload on `cpuset`; None when it could not run (the run goes on without it)."""
    try:
        done = subprocess.run([*taskset_prefix(cpuset), sys.executable, "-c", _SCRIPT], capture_output=True, text=True,
                              timeout=timeout_s, check=True)
        samples = [float(line) for line in done.stdout.split()]
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    return summarize(label, cpuset, samples) if samples else None
