"""Running a profile: load configuration, build and probe labs, write the environment, then hand the
planned cells to the replicate loop (harness/session/scheduler.py).

A failing cell is recorded and the run goes on; a resumed run skips the processes that already
have a measured or skipped row and retries failed ones.
"""

from __future__ import annotations

import dataclasses
import pathlib
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from harness.backends.base import Backend
from harness.session.budget import RunBudget
from harness.host.cpu_hygiene import CpuHygiene, plan_and_check
from harness.config.datasets import load_manifest
from harness.config.defaults import (
    CELL_TIMEOUT_S,
    DATASETS_DIR,
    DEFAULT_PROFILE,
    EXPERIMENTS_DIR,
    LABS_DIR,
    PROFILES_FILE,
    RESULTS_DIR,
)
from harness.model.run_folder import ENVIRONMENT_FILE, LOGS_DIR, RUN_FILE, SCHEMA_VERSION
from harness.planning.designs import DESIGNS, Design, group_key
from harness.host.environment import collect_host_environment
from harness.model.errors import ConfigError, ResumeError, UnknownNameError
from harness.planning.estimate import describe_estimate, round_seconds
from harness.config.experiment_checks import CheckContext, check_experiments, check_not_empty
from harness.config.experiments import load_experiments, select_experiments
from harness.config.isa import IsaLevel, IsaTable, load_isa_table
from harness.config.lab_catalog import load_lab_catalog
from harness.config.labs import LabSpec, load_labs
from harness.planning.pinning import CpuPlan, pin_current_process
from harness.planning.plan import (
    with_aa_copies,
    builds_of,
    claimed_benchmarks,
    datasets_of,
    labs_of,
    levels_by_benchmark,
    plan_cells,
    runtimes_by_benchmark,
)
from harness.session.probe import LabProbe, check_arch, check_variants, host_arch, probe_lab
from harness.config.profiles import BudgetSpec, Stopping, find_profile, load_profiles
from harness.session.progress import RunProgress
from harness.model.records import DEFAULT_RUNTIME, STEADY, Cell, ColdSettings, JobSettings
from harness.session.scheduler import Session
from harness.model.store import RunStore, new_run_id


@dataclass(frozen=True)
class RunOptions:
    """What the user asked for; None means 'take it from the profile' or the default."""

    profile: str = DEFAULT_PROFILE
    experiments: tuple[str, ...] | None = None
    isa_levels: tuple[str, ...] | None = None
    runtimes: tuple[str, ...] | None = None
    benchmarks: tuple[str, ...] | None = None
    variants: tuple[str, ...] | None = None
    run_id: str | None = None
    resume: bool = False
    results_dir: pathlib.Path = RESULTS_DIR
    lab_cpuset: str | None = None
    harness_cpuset: str | None = None
    build: bool = True
    experiments_dir: pathlib.Path = EXPERIMENTS_DIR
    profiles_file: pathlib.Path = PROFILES_FILE
    labs_dir: pathlib.Path = LABS_DIR
    datasets_dir: pathlib.Path = DATASETS_DIR
    cell_timeout_s: float = CELL_TIMEOUT_S
    pin_harness: bool = True
    design: str | None = None
    job_overrides: tuple[str, ...] = ()  # KEY=VALUE job settings instead of the profile's (--job)
    calibrate: bool = True
    budget_min: float | None = None  # the session's time budget in minutes instead of the profile's; 0: none
    clock: Callable[[], float] = time.monotonic  # what the budget is kept with (tests pass a simulated clock)
    check_tools: bool = (
        True  # False: plan without requiring the labs' programs (`harness check` on a machine without them)
    )


@dataclass(frozen=True)
class RunSummary:
    """Counts by status after a run, and where it is."""

    directory: pathlib.Path
    counts: dict[str, int]


@dataclass(frozen=True)
class Plan:
    """The resolved selection of a run."""

    profile_name: str
    cells: list[Cell]
    labs: dict[str, LabSpec]  # the lab builds the cells run on, by target (Cell.target)
    isa: IsaTable
    job: JobSettings
    levels: dict[str, IsaLevel]
    design: Design
    stopping: Stopping
    cold: ColdSettings = ColdSettings()
    budget: BudgetSpec | None = None

    def estimate(self) -> str:
        """The up-front duration estimate: steady-state cells by rounds, cold-start cells by their runs."""
        steady = [c for c in self.cells if c.measure == STEADY]
        round_s = None
        if self.design.shares_process:
            round_s = sum(
                round_seconds(
                    self.design, list(u.cells), self.job, self.labs[u.cells[0].target].paired_format is not None
                )
                for u in self.design.units(steady)
            )
        text = describe_estimate(
            self.job,
            self.stopping,
            len(steady),
            len({group_key(c) for c in steady}),
            self.design.lab_cpus_needed,
            len(self.cells) - len(steady),
            self.cold,
            round_s,
        )
        if self.budget is None:
            return text
        return (
            f"{text}; run budget {self.budget.minutes:g} min from the start, image builds included "
            "(extra rounds only while it holds; every group gets at least "
            f"{min(self.budget.floor_rounds, self.stopping.min_rounds)} rounds)"
        )

    def selection(self) -> dict:
        """What run.json records, and what a resumed run must match."""
        return {
            "profile": self.profile_name,
            "design": self.design.name,
            "stopping": dataclasses.asdict(self.stopping),
            "job": dataclasses.asdict(self.job),
            "cells": [c.cell_id for c in self.cells],
        }


def resolve_plan(options: RunOptions) -> Plan:
    """Loads every data file and validates the selection before anything runs or is written."""
    profile = find_profile(load_profiles(options.profiles_file), options.profile)
    experiments = select_experiments(
        load_experiments(options.experiments_dir), list(options.experiments or profile.experiments)
    )
    isa = load_isa_table()
    all_labs = load_labs(options.labs_dir)
    manifest = load_manifest(options.datasets_dir)
    check_experiments(
        experiments, CheckContext(all_labs, isa, manifest, load_lab_catalog())
    )  # every name they use, before anything is planned
    per_benchmark = levels_by_benchmark(isa, host_arch(), list(options.isa_levels or profile.isa_levels), experiments)
    runtimes = runtimes_by_benchmark(all_labs, list(options.runtimes or profile.runtimes), experiments)
    benchmarks = (
        options.benchmarks or profile.benchmarks or (claimed_benchmarks(experiments) if profile.only_claimed else None)
    )
    cells = plan_cells(
        experiments, list(isa.levels_for(host_arch()).values()), benchmarks, options.variants, per_benchmark, runtimes
    )
    narrowed = options.isa_levels is not None or options.runtimes is not None  # then only an empty whole is an error
    check_not_empty(
        [] if narrowed else experiments,
        per_benchmark,
        runtimes,
        list(options.isa_levels or profile.isa_levels),
        host_arch(),
        isa,
        cells,
        _selection_text(profile.name, options),
    )
    design_name = options.design or profile.design
    if design_name not in DESIGNS:
        raise UnknownNameError("design", design_name, DESIGNS)
    if profile.aa_copies and DESIGNS[design_name].shares_process:
        cells = with_aa_copies(cells, lambda cell: all_labs[cell.lab].paired_format is not None)
    planned = {c.isa_level for c in cells}
    levels = [level for level in isa.levels_for(host_arch()).values() if level.name in planned]
    for name in datasets_of(cells):
        manifest.check(name)
    for name in labs_of(cells) if options.check_tools else ():
        all_labs[name].check_requirements()
    labs = builds_of(cells, all_labs)
    budget = profile.budget
    if options.budget_min is not None:
        budget = (
            BudgetSpec(options.budget_min, budget.floor_rounds if budget else profile.stopping.min_rounds)
            if options.budget_min > 0
            else None
        )
    job = with_overrides(profile.job, options.job_overrides)
    return Plan(
        profile.name,
        cells,
        labs,
        isa,
        job,
        {level.name: level for level in levels},
        DESIGNS[design_name],
        profile.stopping,
        profile.cold,
        budget,
    )


def _selection_text(profile: str, options: RunOptions) -> str:
    """'profile default, --benchmark a,b': what was asked for, for an error about it."""
    asked = (
        ("experiment", options.experiments),
        ("isa", options.isa_levels),
        ("runtime", options.runtimes),
        ("benchmark", options.benchmarks),
        ("variant", options.variants),
    )
    return ", ".join([f"profile {profile}", *(f"--{flag} {','.join(values)}" for flag, values in asked if values)])


def with_overrides(job: JobSettings, overrides: Iterable[str]) -> JobSettings:
    """The profile's job with --job KEY=VALUE settings put in its place; an unknown key or a bad value is a usage
    error."""
    keys = [f.name for f in dataclasses.fields(JobSettings)]
    changes: dict[str, int] = {}
    for item in overrides:
        key, _, value = item.partition("=")
        if key not in keys:
            raise UnknownNameError("job setting", key, keys, "(--job KEY=VALUE)")
        if not value.isdigit() or int(value) <= 0:
            raise ConfigError(f"--job {item}: the value must be a positive integer", f"e.g. --job {key}=20")
        changes[key] = int(value)
    return dataclasses.replace(job, **changes)


def _open_store(options: RunOptions, plan: Plan) -> RunStore:
    selection = plan.selection()
    if not options.resume:
        store = RunStore.create(options.results_dir, options.run_id or new_run_id())
        budget = None if plan.budget is None else dataclasses.asdict(plan.budget)
        store.write_json(
            RUN_FILE, {"schema_version": SCHEMA_VERSION, "run_id": store.run_id, **selection, "budget": budget}
        )
        return store
    store = RunStore.open(options.results_dir, options.run_id)
    recorded = store.read_json(RUN_FILE)
    if any(recorded.get(key) != value for key, value in selection.items()):
        raise ResumeError(
            f"run {store.run_id} was started with profile '{recorded['profile']}' and {len(recorded['cells'])} cells; "
            f"this command plans profile '{plan.profile_name}' with {len(plan.cells)} cells",
            "resume with the same --profile / --design / --experiment / --isa / --benchmark / --variant as the "
            "original run",
        )
    return store


def _write_environment(
    store: RunStore, plan: Plan, cpus: CpuPlan, probes: dict[str, LabProbe], backend: Backend, hygiene: CpuHygiene
) -> None:
    env = collect_host_environment(hygiene.to_dict())
    engine = getattr(backend, "engine", None)
    env.update(
        {
            "backend": backend.name,
            "lab_cpuset": cpus.lab_cpuset,
            "harness_cpus": list(cpus.harness or ()),
            "container_engine": engine.describe() if engine else None,
        }
    )
    env["labs"] = {
        name: {
            "env": p.env,
            "variants": p.listing["variants"],
            "emulated": p.emulated,
            "runtime": plan.labs[name].runtime,
            "expected_runtime_version": plan.labs[name].expected_version(),
            "lab_environment": plan.labs[name].environment,
            "where": backend.details(plan.labs[name]),
            "isa_levels": {lvl: dataclasses.asdict(lp) for lvl, lp in p.levels.items()},
        }
        for name, p in probes.items()
    }
    # The first session's environment stays environment.json; a resumed session adds its own file.
    name = ENVIRONMENT_FILE if not store.path(ENVIRONMENT_FILE).exists() else f"environment.resumed-{new_run_id()}.json"
    store.write_json(name, env)


def _probe_labs(plan: Plan, backend: Backend, store: RunStore, build: bool) -> dict[str, LabProbe]:
    probes: dict[str, LabProbe] = {}
    if build:
        backend.build_all(plan.labs, store.path(LOGS_DIR))
    for name, lab in plan.labs.items():
        probes[name] = probe_lab(backend, lab, list(plan.levels.values()), plan.isa)
        if not getattr(backend, "emulates", False):
            check_arch(probes[name], host_arch())
        check_variants(probes[name], plan.cells)
    return probes


def plan_summary(plan: Plan) -> str:
    """Cells per experiment, ISA level and runtime, and the estimated duration."""
    counts: dict[tuple[str, str, str], int] = {}
    for cell in plan.cells:
        key = (cell.experiment, cell.isa_level, "" if cell.runtime == DEFAULT_RUNTIME else f" on {cell.runtime}")
        counts[key] = counts.get(key, 0) + 1
    groups = len({group_key(c) for c in plan.cells})
    lines = [
        f"profile {plan.profile_name}: {len(plan.cells)} cells in {groups} groups, design {plan.design.name}",
        *(f"  {exp} @ {level}{runtime}: {n} cells" for (exp, level, runtime), n in counts.items()),
        f"estimate: {plan.estimate()}",
    ]
    return "\n".join(lines)


def execute_run(options: RunOptions, backend: Backend) -> RunSummary:
    """The whole run: plan, build, probe, then the replicate loop, storing each row as it finishes."""
    started = time.monotonic()
    budget_started = options.clock()
    plan = resolve_plan(options)
    cpus, hygiene = plan_and_check(options.lab_cpuset, options.harness_cpuset, plan.design.lab_cpus_needed)
    hygiene.announce()  # isolation, governor, turbo, SMT of the lab's CPUs, with fixes, before anything is built
    store = _open_store(options, plan)
    if options.pin_harness:
        pin_current_process(cpus.harness)
    probes = _probe_labs(plan, backend, store, options.build)
    _write_environment(store, plan, cpus, probes, backend, hygiene)
    store.mark_latest()
    store.record_phase("prepare", started, "plan, build, probe the labs and their ISA levels, capture the environment")

    progress = RunProgress(len(store.rows()))
    progress.note(
        f"run {store.run_id}: {len(plan.cells)} cells, design {plan.design.name}, "
        f"{plan.estimate()}; "
        f"lab pinned to CPU {cpus.lab_cpuset}; results in {store.directory}"
    )
    for lab_probe in probes.values():
        for level in lab_probe.levels.values():
            if level.state != "run":
                progress.note(f"{lab_probe.lab} ISA level {level.level}: {level.state}: {level.detail}")
    session = Session(
        store,
        backend,
        plan.design,
        plan.stopping,
        plan.job,
        probes,
        plan.levels,
        plan.labs,
        tuple(str(c) for c in cpus.lab),
        plan.profile_name,
        options.datasets_dir.resolve(),
        options.cell_timeout_s,
        progress,
        calibrate=options.calibrate,
        cold=plan.cold,
        budget=None if plan.budget is None else RunBudget(plan.budget, budget_started, options.clock),
    )
    try:
        session.run(plan.cells)
    finally:
        backend.close()
        progress.close()
        store.record_phase("session", started, "the whole session, from plan to the last row")
    counts: dict[str, int] = {}
    for row in store.rows().values():
        counts[row.status] = counts.get(row.status, 0) + 1
    return RunSummary(store.directory, counts)
