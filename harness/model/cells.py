"""What to measure: a cell (one benchmark of one experiment at one ISA level on one runtime) and the settings of the job
that measures it, steady state or cold start."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from harness.model.folder.records import DEFAULT_RUNTIME, STEADY, require_field
from harness.model.places import build_of, place_name

# job settings whose range is not "a positive integer": (lowest, highest)
_RANGES = {"burst_collect_generation": (0, 2), "extend_rounds": (0, 1000), "warm_on_lab_cpu": (0, 1)}
# job settings the lab is given only with `--handoff 1` (a handed-over process of the paired-pipelined design)
HANDOVER_SETTINGS = ("extend_rounds",)
# job settings of the hand-over that the harness alone reads (never a lab flag)
HARNESS_SETTINGS = ("warm_on_lab_cpu",)


def job_setting_range(name: str) -> tuple[int, int | None]:
    """The values a job setting takes: (lowest, highest), None for no upper bound (most are positive integers)."""
    return _RANGES.get(name, (1, None))


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
    # paired design: 1 times the native scan anchor (lab/dotnet/native) beside the cells in every round, for ratios
    # across processes read as ratios of ratios (harness/model/stats/pairing.py); 2 also the walk (analysis anchors
    # compares); a run asking for them where a lab lacks them stops first
    native_anchors: int | None = None
    # paired design: the collection before each burst, 2 (the lab's default) BenchmarkDotNet's full one (collect, run
    # finalizers, collect), 1 or 0 one blocking collection of that generation (docs/method.md)
    burst_collect_generation: int | None = None
    # paired-pipelined design: at most this many rounds more than burst_rounds, played while the next process is not
    # warm yet (the lab's CPU samples rather than waits; the process is still one replicate); given with --handoff only
    extend_rounds: int | None = None
    # paired-pipelined design: 1 moves a process that is not warm yet to the lab's CPU as soon as that CPU is free, to
    # finish warming there while the next one starts warming on the warm CPU (harness/backends/handover.py)
    warm_on_lab_cpu: int | None = None

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            low, high = job_setting_range(f.name)
            require_field(
                value is None
                or (
                    isinstance(value, int)
                    and not isinstance(value, bool)
                    and low <= value
                    and (high is None or value <= high)
                ),
                "JobSettings",
                f.name,
                value,
                "must be a positive integer or absent"
                if high is None
                else f"must be an integer {low}..{high} or absent",
            )

    def to_args(self) -> list[str]:
        """Lab command-line flags (--warmup-count 8 ...), only for the values that are set (those of a hand-over:
        handover_args)."""
        args: list[str] = []
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is not None and f.name not in HANDOVER_SETTINGS + HARNESS_SETTINGS:
                args += [f"--{f.name.replace('_', '-')}", str(value)]
        return args

    def handover_args(self) -> list[str]:
        """The flags a handed-over process is given besides to_args (`--handoff 1` and the settings only it takes)."""
        args = ["--handoff", "1"]
        for name in HANDOVER_SETTINGS:
            value = getattr(self, name)
            if value:
                args += [f"--{name.replace('_', '-')}", str(value)]
        return args


def without_handover_settings(job: JobSettings) -> JobSettings:
    """The job without the settings of the hand-over (HANDOVER_SETTINGS, HARNESS_SETTINGS): where a process warms and
    how long it samples while the next one warms, not what it measures."""
    return dataclasses.replace(job, **{name: None for name in HANDOVER_SETTINGS + HARNESS_SETTINGS})


@dataclass(frozen=True)
class ColdSettings:
    """How a cold-start cell is timed: hyperfine's warm-up runs (they warm the file cache, not the process) and timed
    runs of each of its two commands, and extra runs whose peak RSS is read from the kernel."""

    warmup: int = 2
    runs: int = 10
    rss_runs: int = 3

    def __post_init__(self) -> None:
        require_field(self.warmup >= 0, "ColdSettings", "warmup", self.warmup, "must be 0 or more")
        require_field(self.runs >= 2, "ColdSettings", "runs", self.runs, "needs at least 2 runs for an interval")
        require_field(self.rss_runs >= 1, "ColdSettings", "rss_runs", self.rss_runs, "needs at least 1 run")


@dataclass(frozen=True)
class ShotSettings:
    """How a single-shot cell's process runs (experiment `[single_shot]`): `warmup_calls` calls of the same variant and
    operation on the small `warmup_dataset` (none without one), then `calls` timed calls on the real input, each alone.
    """

    warmup_dataset: str | None = None
    warmup_calls: int = 0
    calls: int = 1

    def __post_init__(self) -> None:
        require_field(self.calls >= 1, "ShotSettings", "calls", self.calls, "must be 1 or more")
        require_field(self.warmup_calls >= 0, "ShotSettings", "warmup_calls", self.warmup_calls, "must be 0 or more")
        require_field(
            self.warmup_calls == 0 or bool(self.warmup_dataset),
            "ShotSettings",
            "warmup_dataset",
            self.warmup_dataset,
            "is needed for warm-up calls",
        )

    def to_args(self) -> list[str]:
        """The `shot` verb's flags."""
        if not self.warmup_dataset:
            return ["--calls", str(self.calls)]
        return [
            "--calls",
            str(self.calls),
            "--warmup-dataset",
            self.warmup_dataset,
            "--warmup-calls",
            str(self.warmup_calls),
        ]


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
    # runtime knobs its experiment or group asks for: sorted (name, value) pairs of lab.toml [run_settings]; () none
    run_settings: tuple[tuple[str, str], ...] = ()
    shot: ShotSettings | None = None  # a single-shot cell's warm-up and timed calls (its experiment's [single_shot])
    # the run settings among run_settings that an explanation switched to a publisher's values (harness/config/
    # setting_switches.py): such a cell runs at a place of its own (`place`), in groups of its own
    switched: tuple[tuple[str, str], ...] = ()

    @property
    def settings_text(self) -> str:
        """`gc=server,tiered_compilation=off`, or "" for a cell on the runtime's defaults."""
        return ",".join(f"{name}={value}" for name, value in self.run_settings)

    @property
    def place(self) -> str:
        """Where the cell runs, as rows record it (runtime_requested): its runtime build, and after it the run settings
        it switched ('10.0.12[tiered_compilation=off]'; harness/model/places.py)."""
        return place_name(self.runtime, self.switched)

    @property
    def cell_id(self) -> str:
        """Unique id within a run: experiment:benchmark@isa_level, plus /runtime for a lab built per runtime, plus
        [settings] for a cell with run settings (a rerun after its settings changed measures it again)."""
        return (
            f"{self.experiment}:{self.benchmark}@{self.isa_level}"
            + ("" if self.runtime == DEFAULT_RUNTIME else f"/{self.runtime}")
            + (f"[{self.settings_text}]" if self.run_settings else "")
        )

    @property
    def target(self) -> str:
        """The lab build this cell runs on: 'dotnet@8.0.0', or the lab's name when it has one build."""
        return Cell.target_of(self.lab, self.runtime)

    @staticmethod
    def target_of(lab: str, runtime: str) -> str:
        """The name of a lab's build for one runtime (probes, logs, environment.json); a place with switched run
        settings runs on its runtime's build."""
        runtime = build_of(runtime)
        return lab if runtime == DEFAULT_RUNTIME else f"{lab}@{runtime}"

    @property
    def slug(self) -> str:
        """File-system-safe form of cell_id, for raw/ and logs/ names."""
        suffix = ("" if self.runtime == DEFAULT_RUNTIME else f"__{self.runtime}") + (
            f"__{self.settings_text}" if self.run_settings else ""
        )
        return re.sub(r"[^A-Za-z0-9._-]+", "_", f"{self.experiment}__{self.benchmark}__{self.isa_level}{suffix}")
