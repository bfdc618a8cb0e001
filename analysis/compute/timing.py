"""Where a run's wall time went: the measured samples its statistics use, and everything around them.

Computed from the run's timeline (sessions, preparation, calibration), each process's wall time, the lab's own
phase timings (runtime start, verification, prewarm, BenchmarkDotNet's run) and BenchmarkDotNet's raw per-stage
measurements (jitting, pilot, overhead, warm-up, actual), all stored on the result rows.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from harness.model.folder.records import MEASURED
from harness.model.folder.run_records import TimelineRecord

#: Components of a measured process, in the order they happen: (row column in ms, label).
PROCESS_PARTS = (
    ("start_to_main_ms", "runtime start"),
    ("verify_ms", "verification (and the first, cold calls)"),
    ("prewarm_ms", "prewarm until the JIT is quiet"),
    ("bdn_jitting_ms", "BenchmarkDotNet jitting stage"),
    ("bdn_pilot_ms", "BenchmarkDotNet pilot"),
    ("bdn_overhead_ms", "BenchmarkDotNet overhead stages"),
    ("bdn_warmup_ms", "BenchmarkDotNet warm-up iterations"),
    ("bdn_actual_ms", "measured samples (workload actual)"),
    ("bursts_ms", "measured samples (paired bursts)"),
)

#: A handed-over process's parts done on the harness's CPU before its hand-over (the paired-pipelined design), beside
#: the process timed on the lab's CPU: outside the run's wall time, said apart.
WARMED_BESIDE = ("start_to_main_ms", "verify_ms", "prewarm_ms")
REWARM = "re-warm on the lab's CPU after the hand-over"
LAB_WARM = "warm-up finished on the lab's CPU (moved there before it was warm)"

SAMPLES = "measured samples (workload actual)"
#: The paired engine's timed bursts: measured samples too (a paired process's prewarm and verification are in the rows
#: above, its joint warm-up passes, overhead twins and collections between bursts under "process other").
BURSTS = "measured samples (paired bursts)"


@dataclass(frozen=True)
class TimeAccount:
    """Seconds per component of a run, and the share of measured samples in its wall time."""

    wall_s: float
    parts: dict[str, float]
    beside: dict[str, float] | None = None  # handed-over processes' parts on the harness's CPU, by PROCESS_PARTS label
    extra_rounds_s: float = 0.0  # of the paired bursts: extra rounds played while the next process warmed
    warm_line_s: float = 0.0  # handed-over processes: launch to warm line, as the harness saw it (schema 11)
    warm_cpu_s: float = 0.0  # and the CPU time they used by their warm lines

    @property
    def samples_share(self) -> float | None:
        """Measured samples over the run's wall time."""
        return None if self.wall_s <= 0 else (self.parts.get(SAMPLES, 0.0) + self.parts.get(BURSTS, 0.0)) / self.wall_s


def account(rows: pd.DataFrame, timeline: list[TimelineRecord]) -> TimeAccount | None:
    """The run's time split; None when the run has no timeline (made before this was recorded)."""
    sessions = sum(p.seconds for p in timeline if p.phase == "session")
    if sessions <= 0 or rows.empty:
        return None
    parts: dict[str, float] = {
        "build, lab probes, ISA checks": sum(p.seconds for p in timeline if p.phase == "prepare"),
        "calibration workloads": sum(p.seconds for p in timeline if p.phase == "calibration"),
    }
    measured = rows[rows["status"].isin(MEASURED)]
    unmeasured = rows[~rows["status"].isin(MEASURED)]
    handed = measured["rewarm_ms"].notna() if "rewarm_ms" in measured else pd.Series(False, index=measured.index)
    beside = {label: _seconds(measured[handed], column) for column, label in PROCESS_PARTS if column in WARMED_BESIDE}
    beside["waiting, warm, for the hand-over"] = _seconds(measured[handed], "handover_wait_ms")
    inside = 0.0
    for column, label in PROCESS_PARTS:
        # a handed-over process's start, verification and prewarm ran on the harness's CPU: not in its wall time
        seconds = _seconds(measured[~handed] if column in WARMED_BESIDE else measured, column)
        parts[label] = seconds
        inside += seconds
    if handed.any():
        parts[REWARM] = _seconds(measured, "rewarm_ms")
        inside += parts[REWARM]
        if _seconds(measured, "lab_warm_ms") > 0:
            parts[LAB_WARM] = _seconds(measured, "lab_warm_ms")
            inside += parts[LAB_WARM]
    bdn_stages = (
        sum(float(measured[c].fillna(0).sum()) for c, _ in PROCESS_PARTS if c.startswith("bdn_") and c in measured)
        / 1000
    )
    bdn_run = float(measured["bdn_run_ms"].fillna(0).sum()) / 1000 if "bdn_run_ms" in measured else 0.0
    parts["BenchmarkDotNet other (forced GCs, memory diagnoser run, export)"] = max(bdn_run - bdn_stages, 0.0)
    process_wall = float(measured["duration_s"].fillna(0).sum())
    parts["process other (dataset load, environment probe, exit)"] = max(
        process_wall - inside - parts["BenchmarkDotNet other (forced GCs, memory diagnoser run, export)"], 0.0
    )
    parts["failed or skipped processes"] = float(unmeasured["duration_s"].fillna(0).sum())
    accounted = sum(parts.values())
    between = "harness between processes" + (", and the lab's CPU waiting for a warm process" if handed.any() else "")
    parts[between] = max(sessions - accounted, 0.0)
    return TimeAccount(
        sessions,
        parts,
        beside if handed.any() else None,
        _seconds(measured, "extra_rounds_ms"),
        *_warm_line_seconds(measured[handed]),
    )


def _warm_line_seconds(handed: pd.DataFrame) -> tuple[float, float]:
    """Handed-over processes (schema 11): their time from launch to warm line, and the CPU time they used in it."""
    if "warm_line_ms" not in handed:
        return 0.0, 0.0
    timed = handed[handed["warm_line_ms"].notna()]
    return _seconds(timed, "warm_line_ms"), _seconds(timed, "warm_cpu_ms")


def _seconds(rows: pd.DataFrame, column: str) -> float:
    return float(rows[column].fillna(0).sum()) / 1000 if column in rows else 0.0


def timing_markdown(rows: pd.DataFrame, timeline: list[TimelineRecord]) -> str:
    """The report section: a table of where the time went, with the share of measured samples."""
    acc = account(rows, timeline)
    if acc is None:
        return ""
    shared = rows["process_cells"].fillna(1) if "process_cells" in rows else 1  # a paired process has a row per cell
    processes = int(round(float((rows["duration_s"].notna() / shared).sum())))
    table = "\n".join(
        f"| {label} | {seconds / 60:.1f} min | {100 * seconds / acc.wall_s:.1f}% |"
        for label, seconds in acc.parts.items()
    )
    return (
        "## Where the time went\n\n"
        f"The run took {acc.wall_s / 60:.1f} min of wall time (report rendering not included) in {processes} lab "
        "processes; "
        f"**{100 * (acc.samples_share or 0):.0f}%** of it was measured samples, the BenchmarkDotNet iterations or "
        "paired "
        "bursts the statistics use. The rest, from the run's timeline, each process's wall time, the lab's phase "
        "timings and BenchmarkDotNet's "
        "raw per-stage measurements:\n\n| Component | Time | Share of the run |\n|---|---|---|\n"
        + table
        + "\n"
        + _extra_rounds_markdown(acc)
        + _beside_markdown(acc)
    )


def _extra_rounds_markdown(acc: TimeAccount) -> str:
    """How much of the paired bursts were extra rounds (the job's extend_rounds), played instead of waiting."""
    if acc.extra_rounds_s <= 0:
        return ""
    return (
        f"\nOf the paired bursts, {acc.extra_rounds_s / 60:.1f} min "
        f"({100 * acc.extra_rounds_s / acc.wall_s:.1f}% of the run) were extra rounds: a process on the lab's CPU "
        "went on sampling until the next one was warm, rather than leave the CPU waiting (each process is still one "
        "replicate; its ratio is the median over every round it played).\n"
    )


def _beside_markdown(acc: TimeAccount) -> str:
    """What the paired-pipelined design did on the harness's CPU while the lab's timed the process before."""
    if not acc.beside:
        return ""
    table = "\n".join(f"| {label} | {seconds / 60:.1f} min |" for label, seconds in acc.beside.items())
    return (
        "\nBeside them, on the harness's CPU (the paired-pipelined design): each process was started, verified and "
        "warmed there while the one before it was timed on the lab's CPU, then handed over. This time overlaps the "
        "run's, so it is not in the table above, where a stalled pipeline shows as the harness between processes:\n\n"
        "| On the harness's CPU | Time |\n|---|---|\n"
        + table
        + "\n"
        + (
            f"\nFrom each launch to its warm line, as the harness saw it (the container's exec and the runtime's start "
            f"before the lab's main included): {acc.warm_line_s / 60:.1f} min in all, of which the warming processes "
            f"ran {100 * acc.warm_cpu_s / acc.warm_line_s:.0f}% on the CPU; the rest went to starting them, to the "
            "harness and to anything else that ran on that CPU (work beside a run shows here first).\n"
            if acc.warm_line_s > 0
            else ""
        )
    )
