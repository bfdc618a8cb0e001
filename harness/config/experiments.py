"""Experiments (experiments/NNN-*.toml): one per write-up; benchmarks to run and the claims to check.

An experiment is data: groups with a baseline, benchmarks (variant × dataset), the published
hardware, and the published figures. The format is documented in docs/experiments.md and described by
experiments/experiment.schema.json; loading validates each file against that schema, then every reference inside the
file (groups, baselines, claims and their pairing). Names defined outside the file (labs, runtimes, ISA levels,
datasets, variants) are checked by harness/config/experiment_checks.py.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
import pathlib
import tomllib
from dataclasses import dataclass

from harness.config.defaults import CONFIG_SCHEMA_VERSION, EXPERIMENTS_DIR
from harness.model.errors import ConfigError, UnknownNameError
from harness.config.experiment_schema import display, todo_paths, validate_document
from harness.model.records import MEASURES, STEADY


@dataclass(frozen=True)
class Group:
    """Benchmarks compared with each other, and the one their ratios are taken against."""

    id: str
    title: str
    baseline: str
    # What the group's cells do in words every lab shares (e.g. "untyped-parse"): groups of one shared operation and
    # dataset are set side by side across labs in the report's cross-language section. Empty: lab-specific.
    shared_operation: str = ""


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

    def stand_in(self, available: Sequence[str], fallback: str) -> str:
        """The first of this hardware's stand-in runtimes that is available; `fallback` when none is."""
        return next((name for name in self.lab_runtimes if name in available), fallback)


@dataclass(frozen=True)
class Claim:
    """One published figure. Exactly one of baseline / derived_baseline names the ratio's reference. With isa_level and
    reference_isa_level the measured counterpart is a ratio across ISA levels (a write-up's before/after of a
    vectorization, re-measured as today's code with and without the instruction set) instead of the same level."""

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
    isa_level: str | None = None
    reference_isa_level: str | None = None
    cannot_reproduce: str | None = None
    allocated_tolerance_bytes: int | None = (
        None  # how far a measured allocation may be from allocated_bytes; None: the experiment's
    )

    @property
    def label(self) -> str:
        """How errors name the claim: its published row and table."""
        return f"claim '{self.published_variant}' in '{self.scenario}'"

    @property
    def across_levels(self) -> bool:
        """True for a ratio between ISA levels (isa_level over reference_isa_level), not between benchmarks."""
        return self.isa_level is not None

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


def _read(path: pathlib.Path) -> dict:
    """The file's TOML, checked against the experiment schema."""
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(
            f"{display(path)} is not valid TOML: {e}",
            "fix the line it names (https://toml.io; docs/experiments.md has an example)",
        ) from e
    if data.get("schema_version") != CONFIG_SCHEMA_VERSION:
        raise ConfigError(
            f"{display(path)} has schema_version {data.get('schema_version')!r}",
            f"this harness reads schema_version {CONFIG_SCHEMA_VERSION}",
        )
    validate_document(data, path)
    return data


def _unique(path: pathlib.Path, kind: str, named_by: str, keys: list[str]) -> None:
    """Two entries with one key would silently replace each other (or collide in the report): refused."""
    seen: set[str] = set()
    for key in keys:
        if key in seen:
            raise ConfigError(
                f"{display(path)}: two {kind} with the same {named_by}: {key}",
                f"give each its own {named_by}, or delete the copy",
            )
        seen.add(key)


def _parse(path: pathlib.Path) -> Experiment:
    data = _read(path)
    _unique(path, "groups", "id", [f"'{g['id']}'" for g in data["groups"]])
    _unique(path, "benchmarks", "id", [f"'{b['id']}'" for b in data["benchmarks"]])
    _unique(
        path,
        "claims",
        "published_variant and scenario",
        [f"'{c['published_variant']}' in '{c['scenario']}'" for c in data.get("claims", [])],
    )
    lab, operation = data["lab"], data.get("operation", "deserialize")
    groups = {g["id"]: Group(g["id"], g["title"], g["baseline"], g.get("shared_operation", "")) for g in data["groups"]}
    benchmarks = {
        b["id"]: Benchmark(
            b["id"],
            b["group"],
            b.get("lab", lab),
            b["variant"],
            b["dataset"],
            b.get("operation", operation),
            b.get("note", ""),
            b.get("unavailable", ""),
            tuple(b.get("runtimes", ())),
            b.get("shared_operation", ""),
        )
        for b in data["benchmarks"]
    }
    hardware = {
        key: Hardware(key, h["description"], h["runtime"], h["isa_level"], tuple(h.get("lab_runtimes", ())))
        for key, h in data.get("hardware", {}).items()
    }
    claims = tuple(Claim(**c) for c in data.get("claims", []))
    versions = {str(k): str(v) for k, v in data.get("published_versions", {}).items()}
    return Experiment(
        data["id"],
        data["title"],
        data["writeup"],
        groups,
        benchmarks,
        hardware,
        claims,
        path,
        versions,
        tuple(data.get("runtime_sweep", ())),
        data.get("measure", STEADY),
        data.get("allocated_tolerance_bytes", 0),
        todo_paths(data),
    )


def _validate(exp: Experiment) -> None:
    where = f"in {display(exp.path)}"
    if exp.measure not in MEASURES:
        raise UnknownNameError("measure", exp.measure, MEASURES, where)
    for b in exp.benchmarks.values():
        if b.group not in exp.groups:
            raise UnknownNameError("group", b.group, exp.groups, f"(benchmark {b.id}) {where}")
        baseline = exp.benchmarks.get(exp.groups[b.group].baseline)
        if baseline is not None and baseline.lab != b.lab:
            raise ConfigError(
                f"benchmark '{b.id}' (lab {b.lab}) is in group '{b.group}', whose baseline runs in lab {baseline.lab} "
                f"{where}",
                "a ratio pairs processes of one lab build: give each lab its own group (shared_operation sets them "
                "side by side)",
            )
    for g in exp.groups.values():
        if g.baseline not in exp.benchmarks or exp.benchmarks[g.baseline].group != g.id:
            members = [b.id for b in exp.benchmarks.values() if b.group == g.id]
            raise ConfigError(
                f"group '{g.id}' baseline '{g.baseline}' is not a benchmark of that group {where}",
                f"name one of the group's benchmarks as baseline: {', '.join(members) or 'the group has none yet'}",
            )
    for name in exp.runtime_sweep:
        if name not in exp.benchmarks:
            raise UnknownNameError("benchmark", name, exp.benchmarks, f"(runtime_sweep) {where}")
    for c in exp.claims:
        _validate_claim(exp, c, where)


def _validate_claim(exp: Experiment, c: Claim, where: str) -> None:
    """One published figure: its hardware, its benchmark and reference, its numbers and how its ratio is had."""
    if c.hardware not in exp.hardware:
        raise UnknownNameError("hardware key", c.hardware, exp.hardware, f"({c.label}) {where}")
    if c.cannot_reproduce:
        if c.benchmark:
            raise ConfigError(
                f"{c.label} has a benchmark and cannot_reproduce {where}",
                "a figure is either measured by a benchmark or declared impossible to reproduce, with the reason",
            )
        return
    if not c.benchmark:
        raise ConfigError(
            f"{c.label} names no benchmark {where}",
            'set benchmark to the benchmark that re-measures it, or cannot_reproduce = "why" when none can',
        )
    if bool(c.baseline) == bool(c.derived_baseline):
        raise ConfigError(
            f"{c.label} needs exactly one of baseline / derived_baseline {where}",
            "baseline: the write-up printed a ratio (set ratio too); derived_baseline: it printed none "
            "(docs/experiments.md)",
        )
    for name in (c.benchmark, c.reference):
        if name not in exp.benchmarks:
            raise UnknownNameError("benchmark", name, exp.benchmarks, f"({c.label}) {where}")
    if (c.isa_level is None) != (c.reference_isa_level is None):
        raise ConfigError(
            f"{c.label} sets only one of isa_level / reference_isa_level {where}",
            "a ratio across ISA levels names both levels",
        )
    measured, reference = exp.benchmarks[c.benchmark], exp.benchmarks[c.reference]
    if measured.lab != reference.lab:
        raise ConfigError(
            f"{c.label}: its benchmark '{measured.id}' runs in lab {measured.lab} and its reference '{reference.id}' "
            "in lab "
            f"{reference.lab} {where}; this lab cannot measure that ratio",
            "a ratio pairs processes of one lab build, so both must be in one lab; compare across labs with groups of "
            "one "
            "shared_operation (report: Cross-language) instead",
        )
    if c.mean_ns is None and c.ratio is None and c.allocated_bytes is None:
        raise ConfigError(
            f"{c.label} has no published number {where}",
            "give mean_ns, ratio or allocated_bytes (the figure it stands for)",
        )
    if c.baseline and c.ratio is None:
        raise ConfigError(
            f"{c.label} names baseline '{c.baseline}' but no ratio {where}",
            "baseline means the write-up printed a ratio: set ratio; when it printed none, use derived_baseline",
        )
    if c.derived_baseline and c.ratio is not None:
        raise ConfigError(
            f"{c.label} has a ratio ({c.ratio}) and derived_baseline {where}",
            "a printed ratio goes with baseline; derived_baseline derives the ratio from the published means instead",
        )
    if (
        c.derived_baseline
        and c.mean_ns is not None
        and c.benchmark != c.reference
        and _reference_claim(exp, c, "mean_ns") is None
    ):
        raise ConfigError(
            f"{c.label} has mean_ns and derived_baseline '{c.derived_baseline}', but no claim of "
            f"'{c.derived_baseline}' "
            f"in the same scenario has mean_ns {where}, so no ratio can be derived",
            f"add the reference's published row as a claim with scenario '{c.scenario}', or use baseline with the "
            "printed ratio",
        )


def _reference_claim(exp: Experiment, claim: Claim, attribute: str) -> Claim | None:
    """The claim a derived ratio is taken against: the reference's figure in the same scenario (and reference ISA
    level)."""
    return next(
        (
            c
            for c in exp.claims
            if c.scenario == claim.scenario
            and c.benchmark == claim.reference
            and c.isa_level == claim.reference_isa_level
            and getattr(c, attribute) not in (None, 0)
        ),
        None,
    )


def load_experiments(directory: pathlib.Path = EXPERIMENTS_DIR) -> dict[str, Experiment]:
    """All experiments in a folder, by id, each checked against the schema and validated."""
    experiments: dict[str, Experiment] = {}
    for path in sorted(directory.glob("[0-9]*.toml")):
        exp = _parse(path)
        if exp.id in experiments:
            raise ConfigError(
                f"{display(path)} and {display(experiments[exp.id].path)} both have id '{exp.id}'",
                "give the new experiment the next free id (and the matching NNN- file name)",
            )
        _validate(exp)
        experiments[exp.id] = exp
    return experiments


def select_experiments(experiments: dict[str, Experiment], names: list[str]) -> list[Experiment]:
    """Experiments by id (or ["all"]), rejecting unknown ids."""
    if names == ["all"]:
        return list(experiments.values())
    for name in names:
        if name not in experiments:
            raise UnknownNameError("experiment", name, experiments, "in experiments/")
    return [experiments[name] for name in names]
