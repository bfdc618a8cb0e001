"""Typed records that flow through the harness: jobs, cells, statistics, verification, result rows.

Units are in the field names. Unknown is None, never 0. What was requested and what took
effect are separate fields (isa_requested / isa_effective).
"""

from __future__ import annotations

import dataclasses
import enum
import re
from dataclasses import dataclass, field
from typing import Any

from harness.model.run_folder import SCHEMA_VERSION


class RowStatus(enum.StrEnum):
    """A result row's status: measured and verified / measured but its verification failed / no valid measurement /
    not run on purpose (e.g. an ISA level identical to native, a library with no package here). Written to
    results.jsonl as the plain string."""

    OK = "ok"
    UNVERIFIED = "unverified"
    FAILED = "failed"
    SKIPPED = "skipped"


class VerificationStatus(enum.StrEnum):
    """Whether a variant reproduced its input before it was timed (the lab's verification.json `status`)."""

    PASSED = "passed"
    FAILED = "failed"


STATUSES = tuple(status.value for status in RowStatus)
VERIFICATION_STATUSES = tuple(status.value for status in VerificationStatus)

#: The error prefix of a skipped row whose library has no package here (its benchmark declares `unavailable`).
UNAVAILABLE = "unavailable"

#: The runtime name of a cell whose lab has one build (lab.toml without [runtimes]).
DEFAULT_RUNTIME = "default"

#: What a cell measures: the steady state inside one process (the lab's benchmark engine), or a whole cold process
#: (hyperfine timing the lab's `once` verb).
STEADY, COLD = "steady", "cold"
MEASURES = (STEADY, COLD)

#: Row statuses that carry a usable measurement (a failed verification still has timings).
MEASURED = (RowStatus.OK.value, RowStatus.UNVERIFIED.value)


def _require(condition: bool, record: str, name: str, value: Any, why: str) -> None:
    if not condition:
        raise ValueError(f"{record}.{name} = {value!r}: {why}")


@dataclass(frozen=True)
class JobSettings:
    """How long a cell is measured; None leaves the choice to the lab's benchmark engine. prewarm_ms: wall-clock
    time the lab calls the operation before its benchmark engine starts, so tier-up is over before measuring; with
    prewarm_quiet_ms it stops earlier, once the JIT has compiled nothing for that long (prewarm_ms is then the cap)."""

    launch_count: int | None = None
    warmup_count: int | None = None
    iteration_count: int | None = None
    iteration_time_ms: int | None = None
    invocation_count: int | None = None
    prewarm_ms: int | None = None
    prewarm_quiet_ms: int | None = None
    burst_ms: int | None = None  # paired design: the length of one burst of one cell
    burst_rounds: int | None = None  # paired design: rounds of bursts in one process (every cell once per round)
    fresh_input_rounds: int | None = (
        None  # paired design: each cell rebinds to a fresh copy of its input every N rounds
    )

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            _require(
                value is None or (isinstance(value, int) and value > 0),
                "JobSettings",
                f.name,
                value,
                "must be a positive integer or absent",
            )

    def to_args(self) -> list[str]:
        """Lab command-line flags (--warmup-count 8 ...), only for the values that are set."""
        args: list[str] = []
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is not None:
                args += [f"--{f.name.replace('_', '-')}", str(value)]
        return args


@dataclass(frozen=True)
class ColdSettings:
    """How a cold-start cell is timed: hyperfine's warm-up runs (they warm the file cache, not the process) and timed
    runs of each of its two commands, and extra runs whose peak RSS is read from the kernel."""

    warmup: int = 2
    runs: int = 10
    rss_runs: int = 3

    def __post_init__(self) -> None:
        _require(self.warmup >= 0, "ColdSettings", "warmup", self.warmup, "must be 0 or more")
        _require(self.runs >= 2, "ColdSettings", "runs", self.runs, "needs at least 2 runs for an interval")
        _require(self.rss_runs >= 1, "ColdSettings", "rss_runs", self.rss_runs, "needs at least 1 run")


@dataclass(frozen=True)
class Cell:
    """One measurement: lab × variant × dataset × operation × ISA level, inside one experiment."""

    experiment: str
    benchmark: str
    group: str
    baseline: str
    lab: str
    variant: str
    dataset: str
    operation: str
    isa_level: str
    unavailable: str = ""  # why this benchmark cannot run at all (no package for its library): a row, never a process
    runtime: str = DEFAULT_RUNTIME  # the lab build (lab.toml [runtimes]) this cell runs on
    measure: str = STEADY  # what its experiment measures (MEASURES)

    @property
    def cell_id(self) -> str:
        """Unique id within a run: experiment:benchmark@isa_level, plus /runtime for a lab built per runtime."""
        return f"{self.experiment}:{self.benchmark}@{self.isa_level}" + (
            "" if self.runtime == DEFAULT_RUNTIME else f"/{self.runtime}"
        )

    @property
    def target(self) -> str:
        """The lab build this cell runs on: 'dotnet@8.0.0', or the lab's name when it has one build."""
        return Cell.target_of(self.lab, self.runtime)

    @staticmethod
    def target_of(lab: str, runtime: str) -> str:
        """The name of a lab's build for one runtime (probes, logs, environment.json)."""
        return lab if runtime == DEFAULT_RUNTIME else f"{lab}@{runtime}"

    @property
    def slug(self) -> str:
        """File-system-safe form of cell_id, for raw/ and logs/ names."""
        suffix = "" if self.runtime == DEFAULT_RUNTIME else f"__{self.runtime}"
        return re.sub(r"[^A-Za-z0-9._-]+", "_", f"{self.experiment}__{self.benchmark}__{self.isa_level}{suffix}")


@dataclass(frozen=True)
class Statistics:
    """Per-operation timing statistics of one cell, in nanoseconds."""

    n: int
    mean_ns: float
    median_ns: float
    stddev_ns: float | None
    ci99_lower_ns: float | None
    ci99_upper_ns: float | None
    min_ns: float
    max_ns: float

    def __post_init__(self) -> None:
        _require(self.n > 0, "Statistics", "n", self.n, "needs at least one measurement")
        _require(self.mean_ns > 0, "Statistics", "mean_ns", self.mean_ns, "must be positive")
        _require(
            self.min_ns <= self.median_ns <= self.max_ns,
            "Statistics",
            "median_ns",
            self.median_ns,
            "must lie between min and max",
        )
        if self.ci99_lower_ns is not None and self.ci99_upper_ns is not None:
            _require(
                self.ci99_lower_ns <= self.mean_ns <= self.ci99_upper_ns,
                "Statistics",
                "ci99",
                (self.ci99_lower_ns, self.ci99_upper_ns),
                "must contain the mean",
            )

    @property
    def ci99_half_width_ns(self) -> float | None:
        """Half the 99% confidence interval, or None when it is unknown (n < 2)."""
        if self.ci99_lower_ns is None or self.ci99_upper_ns is None:
            return None
        return (self.ci99_upper_ns - self.ci99_lower_ns) / 2


@dataclass(frozen=True)
class Verification:
    """The lab's verdict on whether a variant really reproduced the dataset."""

    status: str
    message: str
    mismatch_count: int | None = None
    round_trip: str | None = None

    def __post_init__(self) -> None:
        _require(
            self.status in VERIFICATION_STATUSES,
            "Verification",
            "status",
            self.status,
            f"must be one of {VERIFICATION_STATUSES}",
        )


@dataclass(frozen=True)
class CellOutcome:
    """What normalizing a finished cell yields: descriptive fields, statistics, memory, verification."""

    fields: dict[str, Any]
    statistics: Statistics
    verification: Verification
    isa_flags: dict[str, Any]


def row_key(cell_id: str, round_index: int, partner: str | None = None) -> str:
    """The key of one replicate: cell_id#round, plus ~partner when it ran beside another benchmark."""
    return f"{cell_id}#{round_index}" + (f"~{partner}" if partner else "")


@dataclass(frozen=True)
class ProcessUsage:
    """What the measured process and its CPU did besides the benchmark: read from wait4's rusage and /proc/stat."""

    wall_s: float
    lab_cpu_s: float | None = None
    cpu_other_ms: float | None = None
    steal_ms: float | None = None
    involuntary_context_switches: int | None = None

    def fields(self) -> dict[str, Any]:
        """The row fields this usage fills."""
        return {
            "lab_cpu_s": self.lab_cpu_s,
            "cpu_other_ms": self.cpu_other_ms,
            "steal_ms": self.steal_ms,
            "involuntary_context_switches": self.involuntary_context_switches,
        }

    def share(self, parts: int) -> ProcessUsage:
        """One of `parts` equal shares of a process measured for several cells (so sums over rows count it once)."""

        def split(value):
            return None if value is None else value / parts

        ics = self.involuntary_context_switches
        return ProcessUsage(
            self.wall_s / parts,
            split(self.lab_cpu_s),
            split(self.cpu_other_ms),
            split(self.steal_ms),
            None if ics is None else round(ics / parts),
        )


@dataclass(frozen=True)
class ResultRow:
    """One line of results.jsonl: one process-level replicate (round) of one cell, flat (tidy) for pandas.

    `design` says how replicates were placed in time (sequential sweeps, interleaved blocks, or duet pairs);
    `partner` names the benchmark that ran at the same time on the other lab CPU (duet only). In the paired design one
    process measures `process_cells` cells of a group in alternating bursts: `burst_ns` holds this cell's per-round
    times
    (ratios are taken burst against burst inside the process), and the process's wall time and CPU counters are split
    evenly among its cells (`duration_s` is this cell's share). `cpu_other_ms`
    is time the pinned CPU spent on anything but this process while it ran; `steal_ms` is the hypervisor's.
    Where the process's wall time went: `start_to_main_ms` (runtime start), `verify_ms`, `prewarm_ms`, and inside
    BenchmarkDotNet's run (`bdn_run_ms`) its stages, `bdn_actual_ms` being the measured samples the statistics use."""

    run_id: str
    cell_id: str
    status: str
    experiment: str
    benchmark: str
    group: str
    baseline: str
    lab: str
    variant: str
    dataset: str
    operation: str
    isa_requested: str
    cpuset: str
    profile: str
    error: str | None = None
    runtime_requested: str = DEFAULT_RUNTIME
    language: str | None = None
    runtime: str | None = None
    runtime_version: str | None = None
    runtime_switches: dict[str, str] = field(default_factory=dict)
    engine_version: str | None = None
    measure: str = STEADY
    prepare_median_ns: float | None = None  # cold cells: the same process without the call (start + preparation)
    peak_rss_bytes: int | None = None  # cold cells: median of the runs' peak resident set (kernel's ru_maxrss)
    library: str | None = None
    library_version: str | None = None
    dataset_sha256: str | None = None
    payload_form: str | None = None
    model_type: str | None = None
    isa_effective: str | None = None
    isa_switches: dict[str, str] = field(default_factory=dict)
    isa_flags: dict[str, Any] = field(default_factory=dict)
    arch: str | None = None
    emulated: bool | None = None
    backend: str | None = None  # native or docker
    image: str | None = None  # docker: the lab build's image tag (jsonlab/<lab>:<runtime>)
    image_id: str | None = None  # docker: its image id (sha256:…), as Docker reported it when the run started
    cpuset_effective: str | None = None  # the CPUs the measured process was allowed on, read back from inside it
    n: int | None = None
    mean_ns: float | None = None
    median_ns: float | None = None
    stddev_ns: float | None = None
    ci99_lower_ns: float | None = None
    ci99_upper_ns: float | None = None
    ci99_half_width_ns: float | None = None
    min_ns: float | None = None
    max_ns: float | None = None
    allocated_bytes_per_op: float | None = None
    payload_bytes: int | None = None  # the JSON text the operation reads (deserialize) or writes (serialize), as UTF-8
    gen0_collections: int | None = None
    gen1_collections: int | None = None
    gen2_collections: int | None = None
    total_operations: int | None = None
    verification_status: str | None = None
    verification_message: str | None = None
    raw_path: str | None = None
    log_path: str | None = None
    started_at: str | None = None
    duration_s: float | None = None
    round_index: int = 1
    round_count: int = 1
    design: str = "sequential"
    partner: str | None = None
    lab_cpu_s: float | None = None
    cpu_other_ms: float | None = None
    steal_ms: float | None = None
    involuntary_context_switches: int | None = None
    invocation_count: int | None = None
    process_cells: int | None = (
        None  # cells measured in the same process (paired design); its usage is split among them
    )
    burst_ns: list[
        float
    ] | None = None  # paired design: this cell's time per call in each round of bursts, in round order
    bursts_ms: float | None = None  # paired design: the wall time of this cell's timed bursts (its measured samples)
    start_to_main_ms: float | None = None
    verify_ms: float | None = None
    prewarm_ms: float | None = None
    # JIT compilations during the warm-up (the paired design: the process's joint warm-up, shared by its cells); None
    # where the runtime cannot count them (.NET Core 3.1) or the lab does not say (harness/model/warmup_check.py reads
    # it)
    prewarm_compilations: int | None = None
    bdn_run_ms: float | None = None
    bdn_jitting_ms: float | None = None
    bdn_pilot_ms: float | None = None
    bdn_overhead_ms: float | None = None
    bdn_warmup_ms: float | None = None
    bdn_actual_ms: float | None = None
    schema_version: int = SCHEMA_VERSION

    def __post_init__(self) -> None:
        _require(self.status in STATUSES, "ResultRow", "status", self.status, f"must be one of {STATUSES}")
        if self.status in MEASURED:
            _require(
                self.mean_ns is not None and self.mean_ns > 0,
                "ResultRow",
                "mean_ns",
                self.mean_ns,
                f"a '{self.status}' row needs a positive mean",
            )
        if self.status == RowStatus.OK:
            _require(
                self.verification_status == "passed",
                "ResultRow",
                "verification_status",
                self.verification_status,
                "an 'ok' row must have passed verification",
            )
        if self.status == RowStatus.UNVERIFIED:
            _require(
                self.verification_status == VerificationStatus.FAILED,
                "ResultRow",
                "verification_status",
                self.verification_status,
                "an 'unverified' row must have failed verification",
            )
        if self.status in (RowStatus.FAILED, RowStatus.SKIPPED):
            _require(bool(self.error), "ResultRow", "error", self.error, f"a '{self.status}' row must say why")
        _require(
            1 <= self.round_index <= self.round_count,
            "ResultRow",
            "round_index",
            self.round_index,
            f"must lie in 1..{self.round_count}",
        )

    @property
    def row_key(self) -> str:
        """Unique within a run: one row per cell, round and (in duet designs) simultaneous partner."""
        return row_key(self.cell_id, self.round_index, self.partner)

    def to_dict(self) -> dict[str, Any]:
        """Plain dict with named keys, for JSON."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ResultRow:
        """Inverse of to_dict; unknown keys are an error (they mean a newer writer)."""
        known = {f.name for f in dataclasses.fields(cls)}
        extra = set(data) - known
        if extra:
            raise ValueError(f"ResultRow has unknown fields {sorted(extra)}")
        return cls(**data)
