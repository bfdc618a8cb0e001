"""Checks of experiments against everything outside their files, made before anything is built or measured.

An experiment names labs, lab runtimes, ISA levels, datasets (and through them models), variants and operations. Each
name is checked here against where it is defined: the labs' lab.toml, harness/config/isa_levels.toml,
datasets/manifest.json
and each lab's catalog.toml. A name that does not exist is an error naming the file, the benchmark, hardware or
claim,
and the valid names; nothing is planned around it (a lab runtime that does not exist would otherwise fall back to the
lab's default runtime, an unknown ISA level would plan nothing).
"""

from __future__ import annotations

import functools
import pathlib
from collections.abc import Iterable
from dataclasses import dataclass

from harness.config.cpu_models import VENDOR_ARCH, load_cpu_table
from harness.config.data.datasets import Manifest, load_manifest
from harness.config.data.declared_models import declared_model_names
from harness.config.experiment.experiment_schema import display
from harness.config.experiment.profiles import ALL_LEVELS, CLAIMED_LEVELS
from harness.config.experiment.run_settings import value_of
from harness.config.isa import IsaLevel, IsaTable, load_isa_table
from harness.config.lab.lab_catalog import LabNames, check_variant_and_operation, load_lab_catalog
from harness.config.lab.labs import LabSpec, load_labs
from harness.config.lab.library_builds import canonical
from harness.model.cells import Cell
from harness.model.defaults import DATASETS_DIR, LABS_DIR
from harness.model.errors import ConfigError, UnknownNameError
from harness.model.experiment import Benchmark, Claim, Experiment, Group, Hardware


@dataclass(frozen=True)
class CheckContext:
    """Where the names an experiment uses are defined."""

    labs: dict[str, LabSpec]
    isa: IsaTable
    manifest: Manifest
    catalog: dict[str, LabNames]

    @functools.cached_property
    def declared_models(self) -> tuple[str, ...]:
        """The models declared as data (datasets/models/*.toml), which a lab with [declared_models] builds in."""
        return tuple(declared_model_names(self.manifest.directory))

    @property
    def isa_levels(self) -> list[str]:
        """Every level name of every architecture, in table order."""
        return list(dict.fromkeys(name for levels in self.isa.levels.values() for name in levels))


def load_context(labs_dir: pathlib.Path = LABS_DIR, datasets_dir: pathlib.Path = DATASETS_DIR) -> CheckContext:
    """The labs, the ISA table, the dataset manifest and the lab catalog, as the checks need them."""
    return CheckContext(
        load_labs(labs_dir), load_isa_table(labs_dir=labs_dir), load_manifest(datasets_dir), load_lab_catalog(labs_dir)
    )


def check_experiments(experiments: Iterable[Experiment], context: CheckContext) -> None:
    """Raises the first error found in any of the experiments."""
    for exp in experiments:
        check_experiment(exp, context)


def check_experiment(exp: Experiment, context: CheckContext) -> None:
    """Every name the experiment uses that is defined outside its file, after any field still saying TODO (all
    listed)."""
    where = f"in {display(exp.path)}"
    if exp.todos:
        shown = "; ".join(exp.todos[:8]) + (f"; and {len(exp.todos) - 8} more" if len(exp.todos) > 8 else "")
        raise ConfigError(
            f"{display(exp.path)}: {len(exp.todos)} field(s) still say TODO: {shown}",
            "fill each one (docs/experiments.md says what every field takes); `just check` lists what is left",
        )
    for bench in exp.benchmarks.values():
        _check_benchmark(exp, bench, context, where)
    for group in exp.groups.values():
        _check_run_settings(exp, group, context, where)
    for hardware in exp.hardware.values():
        _check_hardware(exp, hardware, context, where)
    for claim in exp.claims:
        _check_claim_places(exp, claim, context, where)


def _check_claim_places(exp: Experiment, claim: Claim, context: CheckContext, where: str) -> None:
    """The coordinates of a ratio across cell dimensions name a level this lab has, and a runtime of the lab of the
    side they place (`at`: the benchmark's, `reference_at`: the reference's, another lab's in a claim across labs)."""
    for field, side in (("at", claim.benchmark), ("reference_at", claim.reference)):
        for dimension, value in getattr(claim, field):
            what = f"({claim.label}, {field}.{dimension}) {where}"
            if dimension == "isa_level" and value not in context.isa_levels:
                raise UnknownNameError("ISA level", value, context.isa_levels, what)
            if dimension == "runtime" and side in exp.benchmarks:
                lab = context.labs.get(exp.benchmarks[side].lab)
                _check_canonical(value, what)
                if lab is not None and value not in lab.with_runtime(value).runtime_names:
                    raise UnknownNameError("runtime", value, lab.runtime_names, f"of lab {lab.name} {what}")


def _check_canonical(runtime: str, what: str) -> None:
    """A runtime with library versions names them in package order (the one spelling its cells and rows carry)."""
    if canonical(runtime) != runtime:
        raise ConfigError(
            f"runtime {runtime!r} {what} names its library versions out of order", f"write {canonical(runtime)!r}"
        )


def _check_benchmark(exp: Experiment, bench: Benchmark, context: CheckContext, where: str) -> None:
    what = f"(benchmark {bench.id}) {where}"
    if bench.lab not in context.labs:
        raise UnknownNameError("lab", bench.lab, context.labs, what)
    lab = context.labs[bench.lab]
    names = context.catalog.get(lab.name, LabNames())
    check_variant_and_operation(names, lab.name, bench.variant, bench.operation, bool(bench.unavailable), what)
    shared = bench.shared_operation or exp.groups[bench.group].shared_operation
    if bench.operation in names.composites and shared:
        raise ConfigError(
            f"benchmark {bench.id} {where} is the composite {bench.operation} with shared operation {shared!r}",
            "a composite is no single step to set beside other labs': remove the shared_operation",
        )
    if bench.dataset not in context.manifest.datasets:
        raise UnknownNameError("dataset", bench.dataset, context.manifest.datasets, f"of datasets/manifest.json {what}")
    model = context.manifest.datasets[bench.dataset].model
    declared = context.declared_models if lab.declared_models else ()
    if model is not None and names.models is not None and model not in names.models + declared:
        raise ConfigError(
            f"dataset '{bench.dataset}' {what} declares model '{model}', which lab {lab.name} does not have",
            f"lab {lab.name}'s models: {', '.join(names.models + declared)}; a new shape is a model file in "
            "datasets/models/ (docs/experiments.md, 'Models as data') or a class in the lab's model registry",
        )
    if not lab.runtimes_measuring(exp.measure):
        raise ConfigError(
            f"benchmark {bench.id} {where} runs in lab {lab.name}, which cannot measure {exp.measure}",
            f"no runtime of lab/{lab.name}/lab.toml lists {exp.measure!r} in its `measures`; run the benchmark in a "
            "lab that has it (the `shot` verb for single shots: docs/lab-contract.md)",
        )
    if exp.single_shot is not None and exp.single_shot.warmup_dataset:
        _check_warmup_dataset(exp.single_shot.warmup_dataset, bench, context, where)
    for runtime in bench.runtimes:
        _check_canonical(runtime, what)
        lab = lab.with_runtime(runtime)  # one with library versions is checked against its lab's [library_versions]
        if runtime not in lab.runtime_names:
            raise UnknownNameError(
                "runtime", runtime, lab.runtime_names, f"of lab {lab.name} (benchmark {bench.id}, runtimes) {where}"
            )
        if runtime not in lab.runtimes_measuring(exp.measure):
            raise ConfigError(
                f"benchmark {bench.id} {where} is pinned to runtime {runtime}, which cannot measure {exp.measure}",
                f"runtimes of lab {lab.name} that measure {exp.measure}: "
                f"{', '.join(lab.runtimes_measuring(exp.measure))}",
            )


def _check_warmup_dataset(name: str, bench: Benchmark, context: CheckContext, where: str) -> None:
    """A single-shot warm-up input exists and, for a benchmark of a typed model, has that model (the same variant and
    operation run on both; an untyped parse takes any JSON)."""
    datasets = context.manifest.datasets
    if name not in datasets:
        raise UnknownNameError(
            "dataset", name, datasets, f"of datasets/manifest.json (single_shot.warmup_dataset) {where}"
        )
    model = datasets[bench.dataset].model if bench.dataset in datasets else None
    if model is not None and datasets[name].model != model:
        raise ConfigError(
            f"single_shot.warmup_dataset '{name}' {where} has model {datasets[name].model!r}, benchmark {bench.id}'s "
            f"dataset '{bench.dataset}' {datasets[bench.dataset].model!r}",
            "warm up on a small dataset of the same model: the same variant and operation run on both",
        )


def _check_run_settings(exp: Experiment, group: Group, context: CheckContext, where: str) -> None:
    """Each run setting of a group is one its lab declares (the baseline's lab: a group runs in one lab), with a value
    it declares; a lab that declares no settings can take none (nothing is applied in its place)."""
    lab = context.labs.get(exp.benchmarks[group.baseline].lab) if group.baseline in exp.benchmarks else None
    if lab is None:
        return
    for name, value in group.run_settings:
        value_of(lab.run_settings, lab.name, name, value, f"(group {group.id}, run_settings) {where}")


def _check_hardware(exp: Experiment, hardware: Hardware, context: CheckContext, where: str) -> None:
    if hardware.isa_level not in context.isa_levels:
        raise UnknownNameError(
            "ISA level", hardware.isa_level, context.isa_levels, f"(hardware {hardware.key}, isa_level) {where}"
        )
    _check_published_cpu(hardware, where)
    labs = [context.labs[name] for name in sorted(_labs_of(exp, hardware) or {b.lab for b in exp.benchmarks.values()})]
    usable = list(dict.fromkeys(runtime for lab in labs for runtime in lab.runtimes_measuring(exp.measure)))
    owners = " / ".join(lab.name for lab in labs)
    for runtime in hardware.lab_runtimes:
        if any(runtime in lab.runtime_names for lab in labs) and runtime not in usable:
            raise ConfigError(
                f"hardware {hardware.key}'s lab_runtimes {where} name runtime {runtime}, which cannot measure "
                f"{exp.measure}",
                f"runtimes of lab {owners} that measure {exp.measure}: {', '.join(usable)}",
            )
        if runtime not in usable:
            raise UnknownNameError(
                "runtime", runtime, usable, f"of lab {owners} (hardware {hardware.key}, lab_runtimes) {where}"
            )
    for lab in labs:
        if hardware.lab_runtimes and not any(
            runtime in lab.runtimes_measuring(exp.measure) for runtime in hardware.lab_runtimes
        ):
            raise ConfigError(
                f"none of hardware {hardware.key}'s lab_runtimes ({', '.join(hardware.lab_runtimes)}) {where} is a "
                "runtime of "
                f"lab {lab.name} that measures {exp.measure}, so its figures would silently run on the lab's default "
                "runtime",
                f"add one of: {', '.join(lab.runtimes_measuring(exp.measure))} (lab/{lab.name}/lab.toml [runtimes])",
            )


def _check_published_cpu(hardware: Hardware, where: str) -> None:
    """microarchitecture names an entry of cpu_models.toml, cpu_vendor a known vendor, and the two agree."""
    if hardware.cpu_vendor is not None and hardware.cpu_vendor not in VENDOR_ARCH:
        raise UnknownNameError(
            "CPU vendor", hardware.cpu_vendor, VENDOR_ARCH, f"(hardware {hardware.key}, cpu_vendor) {where}"
        )
    if hardware.microarchitecture is None:
        return
    entry = load_cpu_table().get(hardware.microarchitecture, f"(hardware {hardware.key}, microarchitecture) {where}")
    if hardware.cpu_vendor not in (None, entry.vendor):
        raise ConfigError(
            f"hardware {hardware.key} {where}: cpu_vendor {hardware.cpu_vendor!r} but microarchitecture "
            f"{entry.key} is {entry.vendor}'s",
            "leave cpu_vendor out: the microarchitecture implies it",
        )


def _labs_of(exp: Experiment, hardware: Hardware) -> set[str]:
    """The labs of the benchmarks whose figures were published on this hardware."""
    return {
        exp.benchmarks[name].lab
        for c in exp.claims
        if c.hardware == hardware.key and not c.cannot_reproduce
        for name in (c.benchmark, c.reference)
    }


def empty_experiment_reason(
    exp: Experiment,
    per_benchmark: dict[tuple[str, str], list[IsaLevel]],
    runtimes: dict[tuple[str, str], list[str]],
    level_names: list[str],
    arch: str,
    isa: IsaTable,
) -> str | None:
    """Why an experiment plans no cell at the ISA levels and runtimes asked for (before any --benchmark or --variant
    filter), or None when it plans some."""
    keys = [(exp.id, b) for b in exp.benchmarks]
    if any(per_benchmark.get(key) and runtimes.get(key) for key in keys):
        return None
    here = list(isa.levels_for(arch))
    if not any(per_benchmark.get(key) for key in keys):
        asked = [name for name in level_names if name not in (ALL_LEVELS, CLAIMED_LEVELS)]
        if CLAIMED_LEVELS in level_names:
            published = {h.isa_level for h in exp.hardware.values()}
            asked += sorted(
                published | {value for c in exp.claims for dim, value in (*c.at, *c.reference_at) if dim == "isa_level"}
            )
        return (
            f"none of its benchmarks gets an ISA level of this {arch} host (asked for: {', '.join(asked) or 'none'}; "
            f"this host's levels: {', '.join(here)})"
        )
    return "none of its benchmarks gets a runtime its lab has and that measures " + exp.measure


def check_not_empty(
    experiments: list[Experiment],
    per_benchmark: dict[tuple[str, str], list[IsaLevel]],
    runtimes: dict[tuple[str, str], list[str]],
    level_names: list[str],
    arch: str,
    isa: IsaTable,
    cells: list[Cell],
    selection: str,
) -> None:
    """An experiment that plans no cell (of those given: the experiments of a profile, or one alone), or a selection
    that
    plans none at all, is an error rather than an empty run."""
    for exp in experiments:
        reason = empty_experiment_reason(exp, per_benchmark, runtimes, level_names, arch, isa)
        if reason is not None:
            raise ConfigError(
                f"experiment {exp.id} ({display(exp.path)}) plans to 0 cells: {reason}",
                "check its hardware isa_level and lab_runtimes, and the --isa / --runtime asked for (`just list` names "
                "them)",
            )
    if not cells:
        raise ConfigError(
            f"the selection plans 0 cells ({selection})",
            "widen it: --benchmark and --variant keep only what they name (and its baselines); `just plan` shows what "
            "is left",
        )
