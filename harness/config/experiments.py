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
import re
from dataclasses import dataclass

from harness.config.data_files import read_toml
from harness.config.defaults import CONFIG_SCHEMA_VERSION, EXPERIMENTS_DIR
from harness.model.errors import ConfigError, UnknownNameError
from harness.config.experiment_schema import display, todo_paths, validate_document
from harness.model.cells import ShotSettings
from harness.model.records import SINGLE_SHOT, STEADY
from harness.config.experiment_rules import unique_keys, validate_experiment
from harness.config.run_settings import normalized


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
    data = read_toml(path, "an experiment file is UTF-8 TOML; docs/experiments.md has an example")
    if data.get("schema_version") != CONFIG_SCHEMA_VERSION:
        raise ConfigError(
            f"{display(path)} has schema_version {data.get('schema_version')!r}",
            f"this harness reads schema_version {CONFIG_SCHEMA_VERSION}",
        )
    validate_document(data, path)
    return data


def _parse(path: pathlib.Path) -> Experiment:
    data = _read(path)
    unique_keys(path, "groups", "id", [f"'{g['id']}'" for g in data["groups"]])
    unique_keys(path, "benchmarks", "id", [f"'{b['id']}'" for b in data["benchmarks"]])
    unique_keys(
        path,
        "claims",
        "published_variant and scenario",
        [f"'{c['published_variant']}' in '{c['scenario']}'" for c in data.get("claims", [])],
    )
    lab, operation = data["lab"], data.get("operation", "deserialize")
    settings = dict(data.get("run_settings") or {})
    groups = {
        g["id"]: Group(
            g["id"],
            g["title"],
            g["baseline"],
            g.get("shared_operation", ""),
            normalized({**settings, **(g.get("run_settings") or {})}),
        )
        for g in data["groups"]
    }
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
        key: Hardware(
            key,
            h["description"],
            h["runtime"],
            h["isa_level"],
            tuple(h.get("lab_runtimes", ())),
            h.get("microarchitecture"),
            h.get("cpu_vendor"),
        )
        for key, h in data.get("hardware", {}).items()
    }
    claims = tuple(_claim(c) for c in data.get("claims", []))
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
        normalized(settings),
        _single_shot(data, path),
    )


def _single_shot(data: dict, path: pathlib.Path) -> ShotSettings | None:
    """The [single_shot] table of a single-shot experiment (its defaults without one); refused on any other measure."""
    table = data.get("single_shot")
    if data.get("measure", STEADY) != SINGLE_SHOT:
        if table is not None:
            raise ConfigError(
                f"{display(path)} has a [single_shot] table but measure = {data.get('measure', STEADY)!r}",
                f'set measure = "{SINGLE_SHOT}", or remove the table',
            )
        return None
    table = table or {}
    if table.get("warmup_calls", 0) > 0 and not table.get("warmup_dataset"):
        raise ConfigError(
            f"{display(path)}: [single_shot] warmup_calls = {table['warmup_calls']} names no warmup_dataset",
            "name a small dataset of the benchmarks' model to warm up on, or set warmup_calls = 0",
        )
    return ShotSettings(
        table.get("warmup_dataset"),
        table.get("warmup_calls", 1 if table.get("warmup_dataset") else 0),
        table.get("calls", 1),
    )


def load_experiments(directory: pathlib.Path = EXPERIMENTS_DIR) -> dict[str, Experiment]:
    """All experiments in a folder, by id, each checked against the schema and validated."""
    experiments: dict[str, Experiment] = {}
    for path in experiment_files(directory):
        exp = _parse(path)
        if not path.name.startswith(f"{exp.id}-"):
            raise ConfigError(
                f"{display(path)} has id '{exp.id}', but its name starts with '{path.name.split('-', 1)[0]}'",
                f"name the file {exp.id}-<words>.toml, or give it the id its name has",
            )
        if exp.id in experiments:
            raise ConfigError(
                f"{display(path)} and {display(experiments[exp.id].path)} both have id '{exp.id}'",
                "give the new experiment the next free id (and the matching NNN- file name)",
            )
        validate_experiment(exp)
        experiments[exp.id] = exp
    return experiments


#: An experiment file's name: its id, a dash, words (experiments/000-stj-case-sensitivity.toml).
EXPERIMENT_FILE = re.compile(r"^[0-9]{3}-[a-z0-9][a-z0-9.-]*\.toml$")
#: The other TOML files an experiments folder holds.
OTHER_FILES = ("profiles.toml",)


def experiment_files(directory: pathlib.Path) -> list[pathlib.Path]:
    """The experiment files of a folder, by name; ConfigError for a folder that does not exist or holds none, and for a
    TOML file whose name would leave it out (a file not named NNN-words.toml is not read)."""
    if not directory.is_dir():
        raise ConfigError(f"{display(directory)} is not a folder", "give the folder that holds the NNN-*.toml files")
    files = sorted(directory.glob("*.toml"))
    for path in files:
        if not EXPERIMENT_FILE.match(path.name) and path.name not in OTHER_FILES:
            raise ConfigError(
                f"{display(path)} is not named like an experiment file (NNN-words.toml, lower case), so it would not "
                "be read",
                f"rename it (e.g. 900-{re.sub('[^a-z0-9]+', '-', path.stem.lower()).strip('-') or 'draft'}.toml with "
                'id = "900"), or move it out of the folder',
            )
    experiments = [path for path in files if path.name not in OTHER_FILES]
    if not experiments:
        raise ConfigError(
            f"{display(directory)} holds no experiment file (NNN-words.toml)",
            "give the folder that holds them (experiments/ by default)",
        )
    return experiments


def select_experiments(experiments: dict[str, Experiment], names: list[str]) -> list[Experiment]:
    """Experiments by id (or ["all"]), rejecting unknown ids."""
    if names == ["all"]:
        return list(experiments.values())
    for name in names:
        if name not in experiments:
            raise UnknownNameError("experiment", name, experiments, "in experiments/")
    return [experiments[name] for name in names]


def _claim(spec: dict) -> Claim:
    """A claim table: `at` and `reference_at` as sorted (dimension, value) pairs."""
    places = {key: tuple(sorted(dict(spec.get(key) or {}).items())) for key in ("at", "reference_at")}
    return Claim(**{**spec, **places})


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
