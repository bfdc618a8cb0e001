"""Experiments (experiments/NNN-*.toml): one per write-up; benchmarks to run and the claims to check.

An experiment is data: groups with a baseline, benchmarks (variant × dataset), the published
hardware, and the published figures. The format is documented in docs/experiments.md and described by
experiments/experiment.schema.json; loading validates each file against that schema, then every reference inside the
file (groups, baselines, claims and their pairing). Names defined outside the file (labs, runtimes, ISA levels,
datasets, variants) are checked by harness/config/experiment/experiment_checks.py.
"""

from __future__ import annotations

import pathlib
import re

from harness.config.data_files import read_toml
from harness.config.experiment.claim_tables import expand_claim_tables
from harness.config.experiment.experiment_rules import unique_keys, validate_experiment
from harness.config.experiment.experiment_schema import display, todo_paths, validate_document
from harness.config.experiment.run_settings import normalized
from harness.config.lab.variant_settings import with_settings
from harness.model.cells import ShotSettings
from harness.model.defaults import CONFIG_SCHEMA_VERSION, EXPERIMENTS_DIR
from harness.model.errors import ConfigError, UnknownNameError
from harness.model.experiment import Benchmark, Claim, Experiment, Group, Hardware
from harness.model.folder.records import SINGLE_SHOT, STEADY
from harness.model.published_setup import PublishedSetup


def _read(path: pathlib.Path) -> dict:
    """The file's TOML, checked against the experiment schema."""
    data = read_toml(path, "an experiment file is UTF-8 TOML; docs/experiments.md has an example")
    if data.get("schema_version") != CONFIG_SCHEMA_VERSION:
        raise ConfigError(
            f"{display(path)} has schema_version {data.get('schema_version')!r}",
            f"this harness reads schema_version {CONFIG_SCHEMA_VERSION}",
        )
    validate_document(data, path)
    if "claim_tables" in data or "claim_defaults" in data:
        expand_claim_tables(data, path)  # into [[claims]], checked again as claims
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
    groups = _groups(data, settings)
    benchmarks = _benchmarks(data, lab, operation, display(path))
    hardware = _hardware(data)
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


def _groups(data: dict, settings: dict) -> dict[str, Group]:
    """The file's groups by id, each with the experiment's run settings under its own."""
    return {
        g["id"]: Group(
            g["id"],
            g["title"],
            g["baseline"],
            g.get("shared_operation", ""),
            normalized({**settings, **(g.get("run_settings") or {})}),
        )
        for g in data["groups"]
    }


def _benchmarks(data: dict, lab: str, operation: str, where: str) -> dict[str, Benchmark]:
    """The file's benchmarks by id; one that names no lab or operation takes the experiment's."""
    return {
        b["id"]: Benchmark(
            b["id"],
            b["group"],
            b.get("lab", lab),
            with_settings(b["variant"], b["settings"], f"{where}: benchmark {b['id']}")
            if "settings" in b
            else b["variant"],
            b["dataset"],
            b.get("operation", operation),
            b.get("note", ""),
            b.get("unavailable", ""),
            tuple(b.get("runtimes", ())),
            b.get("shared_operation", ""),
        )
        for b in data["benchmarks"]
    }


def _hardware(data: dict) -> dict[str, Hardware]:
    """The file's published hardware by key."""
    return {
        key: Hardware(
            key,
            h["description"],
            h["runtime"],
            h["isa_level"],
            tuple(h.get("lab_runtimes", ())),
            h.get("microarchitecture"),
            h.get("cpu_vendor"),
            PublishedSetup(**{name: str(value) for name, value in h.get("setup", {}).items()}),
        )
        for key, h in data.get("hardware", {}).items()
    }


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
EXPERIMENT_FILE = re.compile(r"[0-9]{3}-[a-z0-9][a-z0-9.-]*\.toml")
#: The other TOML files an experiments folder holds.
OTHER_FILES = ("profiles.toml",)


def experiment_files(directory: pathlib.Path) -> list[pathlib.Path]:
    """The experiment files of a folder, by name; ConfigError for a folder that does not exist or holds none, and for a
    TOML file whose name would leave it out (a file not named NNN-words.toml is not read)."""
    if not directory.is_dir():
        raise ConfigError(f"{display(directory)} is not a folder", "give the folder that holds the NNN-*.toml files")
    files = sorted(directory.glob("*.toml"))
    for path in files:
        if not EXPERIMENT_FILE.fullmatch(path.name) and path.name not in OTHER_FILES:
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
