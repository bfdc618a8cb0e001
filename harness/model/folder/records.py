"""Typed records that flow through the harness: the statuses, and the result row (cells.py holds what to measure,
outcomes.py what a finished process yields). Units are in the field names. Unknown is None, never 0. What was requested
and what took effect are separate fields (isa_requested / isa_effective)."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable
from dataclasses import dataclass, field

from harness.model.arch import IsaFlags
from harness.model.folder.field_types import field_hints, shown, type_problem
from harness.model.folder.run_folder import SCHEMA_VERSION
from harness.model.json_value import JsonMapping, JsonObject, as_array, as_object
from harness.model.places import SettingsReadback


class RowStatus(enum.StrEnum):
    """A result row's status: measured and verified / measured but its verification failed / no valid measurement /
    not run on purpose (e.g. an ISA level identical to native, a library with no package here). Written to
    results.jsonl as the plain string."""

    OK = "ok"
    UNVERIFIED = "unverified"
    FAILED = "failed"
    SKIPPED = "skipped"
    # measured, but other work took more than INTERFERENCE_THRESHOLD of its CPU (harness/model/stats/interference.py):
    # kept with its timings, never in the statistics; replaced by a fresh process while the cell has replacements left
    DISTURBED = "disturbed"


class VerificationStatus(enum.StrEnum):
    """Whether a variant reproduced its input before it was timed (the lab's verification.json `status`)."""

    PASSED = "passed"
    FAILED = "failed"


STATUSES = tuple(status.value for status in RowStatus)
VERIFICATION_STATUSES = tuple(status.value for status in VerificationStatus)

#: The error prefix of a skipped row whose library has no package here (its benchmark declares `unavailable`).
UNAVAILABLE = "unavailable"

#: The error prefix of a failed row whose lab build (a runtime's, a library version's) did not build: no process ran
#: (harness/session/build_isolation.py); the report's verdict for its figures is "void: build failed: …".
BUILD_FAILED = "build failed"

#: The runtime name of a cell whose lab has one build (lab.toml without [runtimes]).
DEFAULT_RUNTIME = "default"

#: What a cell measures: the steady state inside one process (the lab's benchmark engine), a whole cold process
#: (hyperfine timing the lab's `once` verb), or single shots (the lab's `shot` verb: a fresh process warms up on a small
#: input, then times N calls on the real one, alone).
STEADY, COLD, SINGLE_SHOT = "steady", "cold", "single-shot"
MEASURES = (STEADY, COLD, SINGLE_SHOT)
#: The measures whose cells are replicated in rounds of processes and take part in ratios and verdicts.
REPLICATED = (STEADY, SINGLE_SHOT)

#: Row statuses that carry a usable measurement (a failed verification still has timings).
MEASURED = (RowStatus.OK.value, RowStatus.UNVERIFIED.value)


def require_field(condition: bool, record: str, name: str, value: object, why: str) -> None:
    if not condition:
        raise ValueError(f"{record}.{name} = {value!r}: {why}")


def row_key(cell_id: str, round_index: int, partner: str | None = None, replaced: int | None = None) -> str:
    """The key of one replicate: cell_id#round, plus ~partner when it ran beside another benchmark, plus !replaced-N for
    the N-th disturbed process of that round that a fresh one replaced (kept beside its replacement)."""
    return (
        f"{cell_id}#{round_index}" + (f"~{partner}" if partner else "") + (f"!replaced-{replaced}" if replaced else "")
    )


#: A field's metadata for a time, size or count as measured: never negative (not an interval's lower bound, which a
#: wide interval of a short time can put below 0, nor a difference of two clocks); from_dict refuses a negative one.
AMOUNT = {"non_negative": True}


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
    # run settings asked for (experiment or group; lab.toml [run_settings]), what the process read back of them, and
    # whether every one of them declares a readback ("read back") or not ("not read back"); empty/None: none asked
    run_settings: dict[str, str] = field(default_factory=dict)
    run_settings_readback: SettingsReadback = field(default_factory=dict)
    run_settings_checked: str | None = None
    language: str | None = None
    runtime: str | None = None
    runtime_version: str | None = None
    runtime_switches: dict[str, str] = field(default_factory=dict)
    engine_version: str | None = None
    measure: str = STEADY
    # cold cells: the same process without the call (start + preparation)
    prepare_median_ns: float | None = field(default=None, metadata=AMOUNT)
    # cold cells: median of the runs' peak resident set (kernel's ru_maxrss)
    peak_rss_bytes: int | None = field(default=None, metadata=AMOUNT)
    # single-shot cells: the resident set just before the timed calls, and whether peak_rss_bytes is the peak of the
    # timed calls alone ("timed-calls": the kernel's mark was reset before them) or of the whole process ("process")
    rss_before_bytes: int | None = field(default=None, metadata=AMOUNT)
    peak_rss_of: str | None = None
    warmup_dataset: str | None = None  # single-shot cells: what each process warmed up on, and how many calls
    warmup_calls: int | None = None
    library: str | None = None
    library_version: str | None = None
    dataset_sha256: str | None = None
    payload_form: str | None = None
    model_type: str | None = None
    isa_effective: str | None = None
    isa_switches: dict[str, str] = field(default_factory=dict)
    isa_flags: IsaFlags = field(default_factory=dict)
    arch: str | None = None
    emulated: bool | None = None
    backend: str | None = None  # host or docker ("native": host, before the rename)
    host: str | None = None  # the hosts.toml host it ran on, in a run over several hosts (None: this machine)
    image: str | None = None  # docker: the lab build's image tag (jsonlab/<lab>:<runtime>)
    image_id: str | None = None  # docker: its image id (sha256:…), as Docker reported it when the run started
    cpuset_effective: str | None = None  # the CPUs the measured process was allowed on, read back from inside it
    n: int | None = field(default=None, metadata=AMOUNT)
    mean_ns: float | None = field(default=None, metadata=AMOUNT)
    median_ns: float | None = field(default=None, metadata=AMOUNT)
    stddev_ns: float | None = field(default=None, metadata=AMOUNT)
    ci99_lower_ns: float | None = None
    ci99_upper_ns: float | None = None
    ci99_half_width_ns: float | None = field(default=None, metadata=AMOUNT)
    min_ns: float | None = field(default=None, metadata=AMOUNT)
    max_ns: float | None = field(default=None, metadata=AMOUNT)
    allocated_bytes_per_op: float | None = field(default=None, metadata=AMOUNT)
    # the JSON text the operation reads (deserialize) or writes (serialize), as UTF-8
    payload_bytes: int | None = field(default=None, metadata=AMOUNT)
    gen0_collections: int | None = field(default=None, metadata=AMOUNT)
    gen1_collections: int | None = field(default=None, metadata=AMOUNT)
    gen2_collections: int | None = field(default=None, metadata=AMOUNT)
    total_operations: int | None = field(default=None, metadata=AMOUNT)
    verification_status: str | None = None
    verification_message: str | None = None
    raw_path: str | None = None
    log_path: str | None = None
    started_at: str | None = None
    duration_s: float | None = field(default=None, metadata=AMOUNT)
    round_index: int = 1
    round_count: int = 1
    design: str = "sequential"
    partner: str | None = None
    lab_cpu_s: float | None = None
    cpu_other_ms: float | None = None
    steal_ms: float | None = None
    involuntary_context_switches: int | None = None
    invocation_count: int | None = field(default=None, metadata=AMOUNT)
    process_cells: int | None = (
        None  # cells measured in the same process (paired design); its usage is split among them
    )
    burst_ns: list[
        float
    ] | None = None  # paired design: this cell's time per call in each round of bursts, in round order
    # paired design with native anchors: each anchor's time per call in each round of this cell's process (round order),
    # and the sha256 of the anchors' library (a ratio of ratios is read only between processes of one library)
    native_anchor_ns: dict[str, list[float]] | None = None
    native_anchors_sha256: str | None = None
    bursts_ms: float | None = None  # paired design: the wall time of this cell's timed bursts (its measured samples)
    start_to_main_ms: float | None = None
    verify_ms: float | None = None
    prewarm_ms: float | None = None
    # JIT compilations during the warm-up (paired: the process's joint warm-up, shared by its cells; read by
    # harness/model/stats/warmup_check.py), and while its rounds were timed (code that changed, or background JIT work,
    # under the timer); None where the runtime cannot count them (.NET Core 3.1) or the lab does not say
    prewarm_compilations: int | None = None
    rounds_compilations: int | None = field(default=None, metadata=AMOUNT)
    # The paired-pipelined design (harness/backends/handover.py), the process's, shared by its cells like its start: its
    # wait, warm, for its hand-over, its re-warm on the lab's CPU after it, (schema 11) its launch to warm line as the
    # harness saw it and the CPU time it used by then, and its extra rounds played while the next process warmed
    # (extend_rounds; inside bursts_ms), (schema 12) of its warm-up the time on the lab's CPU (warm_on_lab_cpu; inside
    # its duration); None for a process that was not handed over
    handover_wait_ms: float | None = field(default=None, metadata=AMOUNT)
    rewarm_ms: float | None = field(default=None, metadata=AMOUNT)
    warm_line_ms: float | None = field(default=None, metadata=AMOUNT)
    warm_cpu_ms: float | None = field(default=None, metadata=AMOUNT)
    extra_rounds_ms: float | None = field(default=None, metadata=AMOUNT)
    lab_warm_ms: float | None = field(default=None, metadata=AMOUNT)
    bdn_run_ms: float | None = None
    bdn_jitting_ms: float | None = None
    bdn_pilot_ms: float | None = None
    bdn_overhead_ms: float | None = None
    bdn_warmup_ms: float | None = None
    bdn_actual_ms: float | None = None
    # A disturbed process that a fresh one replaced: the how-manieth of its round (1, 2 …); its row is kept, set aside
    replaced: int | None = None
    schema_version: int = SCHEMA_VERSION

    def __post_init__(self) -> None:
        require_field(self.status in STATUSES, "ResultRow", "status", self.status, f"must be one of {STATUSES}")
        if self.status in MEASURED:
            require_field(
                self.mean_ns is not None and self.mean_ns > 0,
                "ResultRow",
                "mean_ns",
                self.mean_ns,
                f"a '{self.status}' row needs a positive mean",
            )
        if self.status == RowStatus.OK:
            require_field(
                self.verification_status == "passed",
                "ResultRow",
                "verification_status",
                self.verification_status,
                "an 'ok' row must have passed verification",
            )
        if self.status == RowStatus.UNVERIFIED:
            require_field(
                self.verification_status == VerificationStatus.FAILED,
                "ResultRow",
                "verification_status",
                self.verification_status,
                "an 'unverified' row must have failed verification",
            )
        if self.status in (RowStatus.FAILED, RowStatus.SKIPPED, RowStatus.DISTURBED):
            require_field(bool(self.error), "ResultRow", "error", self.error, f"a '{self.status}' row must say why")
        require_field(
            1 <= self.round_index <= self.round_count,
            "ResultRow",
            "round_index",
            self.round_index,
            f"must lie in 1..{self.round_count}",
        )

    @property
    def row_key(self) -> str:
        """Unique within a run: one row per cell, round and (in duet designs) simultaneous partner."""
        return row_key(self.cell_id, self.round_index, self.partner, self.replaced)

    def to_dict(self) -> JsonObject:
        """Plain dict with named keys, for JSON."""
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: JsonMapping) -> ResultRow:
        """Inverse of to_dict; unknown keys are an error (they mean a newer writer), and so are a missing required
        field, a value of another type than the field's, a number that is not finite and a negative time, size or
        count (ValueError naming the field)."""
        fields = {f.name: f for f in dataclasses.fields(cls)}
        extra = set(data) - set(fields)
        if extra:
            raise ValueError(f"ResultRow has unknown fields {sorted(extra)}")
        missing = [
            name
            for name, f in fields.items()
            if name not in data and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        ]
        if missing:
            raise ValueError(f"ResultRow lacks the field(s) {', '.join(missing)}")
        hints = field_hints(cls)
        for name, value in data.items():
            why = type_problem(value, hints[name])
            if why:
                raise ValueError(f"ResultRow.{name} = {shown(value)}: {why}")
            if name in _NON_NEGATIVE and isinstance(value, (int, float)) and value < 0:
                raise ValueError(f"ResultRow.{name} = {value!r}: a time, size or count is not negative")
        times = [
            *as_array(data.get("burst_ns")),
            *(t for ts in as_object(data.get("native_anchor_ns")).values() for t in as_array(ts)),
        ]
        if any(isinstance(t, (int, float)) and t <= 0 for t in times):  # numbers each: type_problem above
            raise ValueError("ResultRow.burst_ns or native_anchor_ns: a time per call is not positive")
        # Every value was checked against its field's type above (type_problem): the constructor takes them as they are.
        construct: Callable[..., ResultRow] = cls
        return construct(**data)


#: The fields that are never negative (those declared with AMOUNT).
_NON_NEGATIVE = frozenset(f.name for f in dataclasses.fields(ResultRow) if f.metadata.get("non_negative"))
