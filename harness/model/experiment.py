"""What an experiment is (one per write-up): its groups, benchmarks, the published hardware and the published figures
(claims), and how a derived figure finds the one it is taken against. harness/config/experiment/experiments.py reads
them from experiments/NNN-*.toml."""

from __future__ import annotations

import dataclasses
import pathlib
from collections.abc import Sequence
from dataclasses import dataclass

from harness.model.cells import ShotSettings
from harness.model.folder.records import STEADY
from harness.model.published_setup import PublishedSetup


@dataclass(frozen=True)
class Group:
    """Benchmarks compared with each other, and the one their ratios are taken against."""

    id: str
    title: str
    baseline: str
    # What the group's cells do in words every lab shares (e.g. "untyped-parse"): groups of one shared operation and
    # dataset are set side by side across labs in the report's cross-language section. Empty: lab-specific.
    shared_operation: str = ""
    # Runtime knobs its cells run with (lab.toml [run_settings] of its baseline's lab): the experiment's run_settings
    # overridden by the group's own, as sorted (name, value) pairs; () the runtime's defaults.
    run_settings: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Benchmark:
    """One thing to measure: a lab variant on a dataset with one operation."""

    id: str
    group: str
    lab: str
    variant: str
    dataset: str
    operation: str
    note: str = ""
    unavailable: str = ""
    runtimes: tuple[str, ...] = ()  # only these lab runtimes (e.g. a Native AOT build); empty: as the profile chooses
    # The shared operation of this benchmark when it is not its group's: e.g. fast-json-stringify, which needs a schema,
    # is a typed serialize beside its group's untyped JSON.stringify (and keeps its ratio to it).
    shared_operation: str = ""

    def shared_operation_in(self, group: Group) -> str:
        """What this benchmark does in words every lab shares: its own shared operation, else its group's."""
        return self.shared_operation or group.shared_operation


@dataclass(frozen=True)
class Hardware:
    """Where a published figure was measured, the ISA level of this lab that matches it, and the lab runtimes that
    stand in for its runtime, in order of preference (the first one the benchmark's lab is built for is used;
    none: the lab's default runtime)."""

    key: str
    description: str
    runtime: str
    isa_level: str
    lab_runtimes: tuple[str, ...] = ()
    # The published CPU as harness/config/cpu_models.toml knows it (a key there), and its vendor (implied by the
    # microarchitecture); a run over several hosts reads the figure on the host nearest it (docs/hosts.md).
    microarchitecture: str | None = None
    cpu_vendor: str | None = None
    # What the write-up says about the rest of its setup (OS, runtime build, GC, method, data, …): "not stated" where
    # it says nothing (harness/model/published_setup.py).
    setup: PublishedSetup = PublishedSetup()

    def stand_in(self, available: Sequence[str], fallback: str) -> str:
        """The first of this hardware's stand-in runtimes that is available; `fallback` when none is."""
        return next((name for name in self.lab_runtimes if name in available), fallback)


#: The cell dimensions a claim's two sides may differ in (`at` / `reference_at`): an ISA level of this lab, a runtime
#: of the side's lab (in a claim across labs, the reference's runtime is one of its own lab's).
CLAIM_DIMENSIONS = ("isa_level", "runtime")


@dataclass(frozen=True)
class Claim:
    """One published figure. Exactly one of baseline / derived_baseline names the ratio's reference. With `at` and
    `reference_at` the measured counterpart is a ratio across cell dimensions (CLAIM_DIMENSIONS): the benchmark read at
    `at` over the reference read at `reference_at` (a write-up's before/after of a vectorization, re-measured as
    today's code with and without the instruction set; a benchmark on two runtimes) instead of both at the claim's
    hardware's level and runtime. A dimension `at` leaves out is the hardware's; one `reference_at` leaves out is the
    measured side's. Both are (dimension, value) pairs, sorted."""

    scenario: str
    published_variant: str
    published_baseline: str
    hardware: str
    benchmark: str = ""
    baseline: str | None = None
    derived_baseline: str | None = None
    mean_ns: float | None = None
    published_mean: str | None = None
    allocated_bytes: int | None = None
    ratio: float | None = None
    note: str = ""
    at: tuple[tuple[str, str], ...] = ()
    reference_at: tuple[tuple[str, str], ...] = ()
    cannot_reproduce: str | None = None
    # a published memory figure as `base + increase` MiB (kostya/benchmarks: the RSS before the timed work and its peak
    # increase during it); the increase is judged as a ratio to the reference's, like a time (single-shot cells)
    memory_base_mib: float | None = None
    memory_increase_mib: float | None = None
    published_memory: str | None = None
    allocated_tolerance_bytes: int | None = (
        None  # how far a measured allocation may be from allocated_bytes; None: the experiment's
    )
    # The row's own statistics as its table printed them (BenchmarkDotNet's Error, StdDev, Min, Median), in ns: how
    # stable the publisher's own measurement was (harness/model/published_stability.py)
    published_error_ns: float | None = None
    published_stddev_ns: float | None = None
    published_min_ns: float | None = None
    published_median_ns: float | None = None

    @property
    def label(self) -> str:
        """How errors name the claim: its published row and table."""
        return f"claim '{self.published_variant}' in '{self.scenario}'"

    @property
    def across(self) -> bool:
        """True for a ratio across cell dimensions (`at` over `reference_at`), not at the hardware's level and
        runtime."""
        return bool(self.at)

    def side(self, dimension: str, default: str) -> str:
        """The measured side's value of a dimension: named in `at`, else `default` (the hardware's)."""
        return dict(self.at).get(dimension, default)

    def reference_side(self, dimension: str, default: str) -> str:
        """The reference side's value of a dimension: named in `reference_at`, else the measured side's."""
        return dict(self.reference_at).get(dimension, self.side(dimension, default))

    @property
    def is_before_row(self) -> bool:
        """True for the 'before' figure of a before/after table (read at its own reference coordinates): the
        reference of its table's other rows, with no ratio of its own."""
        return self.across and self.at == self.reference_at and self.benchmark == self.reference

    @property
    def reference(self) -> str:
        """The benchmark this claim's ratio is taken against."""
        return self.baseline or self.derived_baseline or ""


@dataclass(frozen=True)
class Experiment:
    """One write-up's experiment."""

    id: str
    title: str
    writeup: str
    groups: dict[str, Group]
    benchmarks: dict[str, Benchmark]
    hardware: dict[str, Hardware]
    claims: tuple[Claim, ...]
    path: pathlib.Path
    published_versions: dict[str, str] = dataclasses.field(default_factory=dict)
    runtime_sweep: tuple[str, ...] = ()  # benchmarks also measured on every runtime of their lab (profiles' "sweep")
    measure: str = STEADY  # "steady" (the lab's benchmark engine) or "cold" (whole processes timed with hyperfine)
    allocated_tolerance_bytes: int = (
        0  # how far a measured allocation may be from a published one and be "within tolerance"
    )
    todos: tuple[
        str, ...
    ] = ()  # fields that still say TODO (left by `just import`): refused by the checks before planning
    # the run settings the file declares at its top level (every group's, unless the group sets its own value)
    run_settings: tuple[tuple[str, str], ...] = ()
    # measure = "single-shot": each process's warm-up and timed calls ([single_shot]; defaults without the table)
    single_shot: ShotSettings | None = None

    def settings_of(self, benchmark: str) -> tuple[tuple[str, str], ...]:
        """The run settings of a benchmark's cells: its group's."""
        return self.groups[self.benchmarks[benchmark].group].run_settings

    def named_runtimes(self) -> tuple[str, ...]:
        """Every runtime the experiment names (its claims' `at`/`reference_at`, its benchmarks' `runtimes`): a runtime
        with library versions among them joins its lab's runtimes for the run (harness/config/lab/library_builds.py)."""
        placed = (value for c in self.claims for side in (c.at, c.reference_at) for d, value in side if d == "runtime")
        return tuple(dict.fromkeys([*placed, *(r for b in self.benchmarks.values() for r in b.runtimes)]))

    def baseline_of(self, benchmark: str) -> str:
        """The baseline benchmark id of a benchmark's group."""
        return self.groups[self.benchmarks[benchmark].group].baseline

    def allocation_tolerance(self, claim: Claim) -> int:
        """Bytes per operation a measured allocation may differ from the claim's published one: its own, else the
        experiment's."""
        return (
            self.allocated_tolerance_bytes
            if claim.allocated_tolerance_bytes is None
            else claim.allocated_tolerance_bytes
        )


def reference_claim(claim: Claim, claims: tuple[Claim, ...], attribute: str) -> Claim | None:
    """The figure a derived ratio is taken against: the reference benchmark's in the same scenario, published at the
    reference's coordinates (`reference_at`), with a non-zero value of `attribute`."""
    return next(
        (
            c
            for c in claims
            if c.scenario == claim.scenario
            and c.benchmark == claim.reference
            and c.at == claim.reference_at
            and getattr(c, attribute) not in (None, 0)
        ),
        None,
    )
