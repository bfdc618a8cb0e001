"""Running a profile: load configuration, probe labs, then run every planned cell (once per round)
and store its row.

A failing cell is recorded and the run goes on; a resumed run skips the cell rounds that already
have a measured or skipped row and retries failed ones.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import pathlib
import time
from dataclasses import dataclass

from harness.backends.base import Backend, CellRequest
from harness.datasets import load_manifest
from harness.defaults import SCHEMA_VERSION, CELL_TIMEOUT_S, DATASETS_DIR, DEFAULT_PROFILE, ENVIRONMENT_FILE, EXPERIMENTS_DIR, LABS_DIR, LOGS_DIR, PROFILES_FILE, RAW_DIR, RESULTS_DIR, RUN_FILE
from harness.environment import collect_host_environment
from harness.errors import HarnessError, ResumeError
from harness.experiments import load_experiments, select_experiments
from harness.isa import IsaLevel, IsaTable, load_isa_table
from harness.labs import LabSpec, find_lab, load_labs
from harness.normalize import NORMALIZERS
from harness.pinning import CpuPlan, pin_current_process, plan_cpus
from harness.plan import datasets_of, labs_of, plan_cells
from harness.probe import LabProbe, check_arch, check_variants, host_arch, probe_lab
from harness.profiles import find_profile, load_profiles
from harness.progress import RunProgress
from harness.records import Cell, JobSettings, ResultRow
from harness.rows import RowContext, failed_row, measured_row, skipped_row
from harness.store import RunStore, new_run_id

#: Row statuses a resumed run does not run again.
FINISHED = ("ok", "unverified", "skipped")


@dataclass(frozen=True)
class RunOptions:
    """What the user asked for; None means 'take it from the profile' or the default."""

    profile: str = DEFAULT_PROFILE
    experiments: tuple[str, ...] | None = None
    isa_levels: tuple[str, ...] | None = None
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
    labs: dict[str, LabSpec]
    isa: IsaTable
    job: JobSettings
    levels: dict[str, IsaLevel]
    rounds: int

    def schedule(self) -> list[tuple[Cell, int]]:
        """(cell, round) in run order: per ISA level, every round runs all of that level's cells."""
        order = []
        for level in self.levels:
            cells = [c for c in self.cells if c.isa_level == level]
            order += [(cell, r) for r in range(1, self.rounds + 1) for cell in cells]
        return order


def resolve_plan(options: RunOptions) -> Plan:
    """Loads every data file and validates the selection before anything runs or is written."""
    profile = find_profile(load_profiles(options.profiles_file), options.profile)
    experiments = select_experiments(load_experiments(options.experiments_dir), list(options.experiments or profile.experiments))
    isa = load_isa_table()
    levels = isa.resolve(host_arch(), list(options.isa_levels or profile.isa_levels))
    cells = plan_cells(experiments, levels, options.benchmarks or profile.benchmarks, options.variants)
    manifest = load_manifest(options.datasets_dir)
    for name in datasets_of(cells):
        manifest.check(name)
    all_labs = load_labs(options.labs_dir)
    labs = {name: find_lab(all_labs, name) for name in labs_of(cells)}
    for lab in labs.values():
        lab.check_requirements()
    return Plan(profile.name, cells, labs, isa, profile.job, {level.name: level for level in levels}, profile.rounds)


def _open_store(options: RunOptions, plan: Plan) -> RunStore:
    selection = {"profile": plan.profile_name, "rounds": plan.rounds, "cells": [c.cell_id for c in plan.cells]}
    if not options.resume:
        store = RunStore.create(options.results_dir, options.run_id or new_run_id())
        store.write_json(RUN_FILE, {"schema_version": SCHEMA_VERSION, "run_id": store.run_id, **selection})
        return store
    store = RunStore.open(options.results_dir, options.run_id)
    recorded = store.read_json(RUN_FILE)
    if any(recorded.get(key) != value for key, value in selection.items()):
        raise ResumeError(f"run {store.run_id} was started with profile '{recorded['profile']}' and {len(recorded['cells'])} cells; "
                          f"this command plans profile '{plan.profile_name}' with {len(plan.cells)} cells",
                          "resume with the same --profile / --experiment / --isa / --benchmark / --variant as the original run")
    return store


def _write_environment(store: RunStore, plan: Plan, cpus: CpuPlan, probes: dict[str, LabProbe], backend: Backend) -> None:
    env = collect_host_environment()
    env.update({"backend": backend.name, "lab_cpuset": cpus.lab_cpuset, "harness_cpus": list(cpus.harness or ())})
    env["labs"] = {name: {"env": p.env, "variants": p.listing["variants"], "emulated": p.emulated,
                          "lab_environment": plan.labs[name].environment,
                          "isa_levels": {lvl: dataclasses.asdict(lp) for lvl, lp in p.levels.items()}}
                   for name, p in probes.items()}
    # The first session's environment stays environment.json; a resumed session adds its own file.
    name = ENVIRONMENT_FILE if not store.path(ENVIRONMENT_FILE).exists() else f"environment.resumed-{new_run_id()}.json"
    store.write_json(name, env)


def run_one_cell(backend: Backend, plan: Plan, store: RunStore, ctx: RowContext, options: RunOptions) -> ResultRow:
    """Runs one cell and turns whatever happened into a row (never raises HarnessError)."""
    cell, lab = ctx.cell, plan.labs[ctx.cell.lab]
    if ctx.level.state == "same-as-native":
        return skipped_row(ctx, ctx.level.detail)
    if ctx.level.state == "not-effective":
        return failed_row(ctx, ctx.level.detail)
    out_dir = store.path(RAW_DIR, cell.slug, f"round-{ctx.round_index}")
    out_dir.mkdir(parents=True, exist_ok=True)
    request = CellRequest(lab, cell, options.datasets_dir.resolve(), out_dir, store.path(ctx.log_path or ""),
                          plan.job, ctx.level.switches, ctx.cpuset, options.cell_timeout_s)
    started = time.monotonic()
    try:
        backend.run_cell(request)
        outcome = NORMALIZERS[lab.raw_format](out_dir)
    except HarnessError as e:
        return failed_row(dataclasses.replace(ctx, duration_s=time.monotonic() - started), f"{e} ({e.hint})")
    outcome = dataclasses.replace(outcome, fields={**outcome.fields, "raw_path": store.relative(out_dir / outcome.fields["raw_path"])})
    return measured_row(dataclasses.replace(ctx, duration_s=round(time.monotonic() - started, 2)), outcome, plan.levels[cell.isa_level])


def execute_run(options: RunOptions, backend: Backend) -> RunSummary:
    """The whole run: plan, build, probe, measure every cell, store each row as it finishes."""
    plan = resolve_plan(options)
    store = _open_store(options, plan)
    cpus = plan_cpus(options.lab_cpuset, options.harness_cpuset)
    if options.pin_harness:
        pin_current_process(cpus.harness)
    probes: dict[str, LabProbe] = {}
    for name, lab in plan.labs.items():
        if options.build:
            backend.build(lab, store.path(LOGS_DIR, f"build-{name}.log"))
        probes[name] = probe_lab(backend, lab, list(plan.levels.values()), plan.isa)
        check_arch(probes[name], host_arch())
        check_variants(probes[name], plan.cells)
    _write_environment(store, plan, cpus, probes, backend)
    store.mark_latest()

    done = {key for key, row in store.rows().items() if row.status in FINISHED}
    schedule = plan.schedule()
    progress = RunProgress(len(schedule), len(done))
    progress.note(f"run {store.run_id}: {len(plan.cells)} cells × {plan.rounds} round(s) ({len(done)} already done), "
                  f"lab pinned to CPU {cpus.lab_cpuset}; results in {store.directory}")
    for lab_probe in probes.values():
        for level in lab_probe.levels.values():
            if level.state != "run":
                progress.note(f"{lab_probe.lab} ISA level {level.level}: {level.state}: {level.detail}")
    try:
        for cell, round_index in schedule:
            if f"{cell.cell_id}#{round_index}" in done:
                continue
            progress.started(cell)
            ctx = RowContext(store.run_id, cell, cpus.lab_cpuset, plan.profile_name, probes[cell.lab].levels[cell.isa_level],
                             probes[cell.lab].emulated, store.relative(store.path(LOGS_DIR, f"{cell.slug}.round-{round_index}.log")),
                             _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
                             round_index=round_index, round_count=plan.rounds)
            row = run_one_cell(backend, plan, store, ctx, options)
            store.append(row)
            progress.finished(cell, row)
    finally:
        progress.close()
    counts: dict[str, int] = {}
    for row in store.rows().values():
        counts[row.status] = counts.get(row.status, 0) + 1
    return RunSummary(store.directory, counts)
