"""What a run will measure, resolved before anything is built: the options a run was started with, and the plan they
resolve to (profile, experiments, cells, runtimes, ISA levels, job, stopping rule, budget), with its one-screen
summary."""

from __future__ import annotations

import dataclasses
from collections import Counter
import pathlib
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from harness.config.datasets import Manifest, load_manifest
from harness.config.defaults import (
    CELL_TIMEOUT_S,
    DATASETS_DIR,
    DEFAULT_PROFILE,
    EXPERIMENTS_DIR,
    LABS_DIR,
    PROFILES_FILE,
    RESULTS_DIR,
)
from harness.planning.designs import DESIGNS, Design, group_key
from harness.model.errors import ConfigError, UnknownNameError
from harness.planning.estimate import (
    UNKNOWN_PROCESS_S,
    ShotCosts,
    describe_estimate,
    learned_round_seconds,
    modelled_round_seconds,
    round_seconds,
)
from harness.model.run_records import CONFORMANCE, PREPARE, REPORT
from harness.planning.history import CostHistory, load_call_rates, load_history
from harness.config.experiment_checks import CheckContext, check_experiments, check_not_empty
from harness.config.experiments import Experiment, load_experiments, select_experiments
from harness.config.isa import IsaLevel, IsaTable, load_isa_table
from harness.config.lab_catalog import load_lab_catalog
from harness.config.labs import LabSpec, load_labs
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
from harness.host.arch import host_arch
from harness.config.profiles import BudgetSpec, Stopping, find_profile, load_profiles
from harness.model.records import COLD, DEFAULT_RUNTIME, REPLICATED, SINGLE_SHOT
from harness.model.cells import Cell, ColdSettings, JobSettings


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
    wait: bool = False  # queue behind a measurement that holds a lab CPU instead of stopping (harness/host/cpu_lock.py)
    clock: Callable[[], float] = time.monotonic  # what the budget is kept with (tests pass a simulated clock)
    check_tools: bool = (
        True  # False: plan without requiring the labs' programs (`harness check` on a machine without them)
    )


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
    experiments: tuple[Experiment, ...] = ()  # the experiments the cells come from (the claims they decide)
    peak_rss_runs: int = 0  # steady cells of one process: peak-RSS runs after each (profile key peak_rss_runs)
    # Cells at an ISA level their build has no switch for (lab.toml `reports` and [isa_switches]): recorded as not
    # applicable by the run, never measured.
    not_applicable: frozenset[str] = frozenset()
    history: CostHistory | None = None  # what these cells cost in earlier runs (harness/planning/history.py)
    shot_costs: ShotCosts = ShotCosts()  # single-shot processes: their inputs' sizes and their variants' learned costs

    def estimate(self) -> str:
        """The up-front duration estimate: steady-state cells by rounds, cold-start cells by their runs; each round
        costed at what its cells took in the newest earlier run of the same design and job where one exists, else by
        the job's model."""
        steady = [c for c in self.cells if c.measure in REPLICATED and c.cell_id not in self.not_applicable]
        shots = [c for c in steady if c.measure == SINGLE_SHOT]
        round_s = None
        if self.design.shares_process:
            round_s = sum(
                round_seconds(
                    self.design, list(u.cells), self.job, self.labs[u.cells[0].target].shares_process(u.cells[0])
                )
                for u in self.design.units([c for c in steady if c not in shots])
            )
        if shots:  # single shots are costed from their inputs' sizes, whatever the job
            others = len(steady) - len(shots)
            if round_s is None:
                round_s = modelled_round_seconds(self.job, others, self.peak_rss_runs) if others else 0.0
            round_s = (UNKNOWN_PROCESS_S * others if round_s is None else round_s) + sum(
                self.shot_costs.process_seconds(c) for c in shots
            )
        if self.history is not None and self.history.known(c.cell_id for c in steady):
            if round_s is None:
                round_s = modelled_round_seconds(self.job, len(steady), self.peak_rss_runs)
            round_s = learned_round_seconds(
                [c.cell_id for c in steady], round_s, self.history, self.design.lab_cpus_needed
            )
        text = describe_estimate(
            self.job,
            self.stopping,
            len(steady),
            len({group_key(c) for c in steady}),
            self.design.lab_cpus_needed,
            sum(1 for c in self.cells if c.measure == COLD and c.cell_id not in self.not_applicable),
            self.cold,
            round_s,
            self.peak_rss_runs,
            None if self.budget is None else self.budget.minutes,
            self._learned_phase(PREPARE),
            self._learned_phase(CONFORMANCE) + self._learned_phase(REPORT),
        )
        if self.history is not None and self.history.known(c.cell_id for c in steady):
            known = len(self.history.known(c.cell_id for c in steady))
            text += f" ({self.history.describe(c.cell_id for c in steady)}"
            text += ", the others modelled)" if known < len(steady) else ")"
        if after := self.after_run():
            text += f"; {after}"
        if self.budget is None:
            return text
        return (
            f"{text}; run budget {self.budget.minutes:g} min from the start, image builds included "
            "(extra rounds only while it holds"
            + ("; groups with an undecided claim first" if self.budget.priority == "open-claims" else "")
            + "; every group gets at least "
            f"{min(self.budget.floor_rounds, self.stopping.min_rounds)} rounds)"
        )

    def _learned_phase(self, phase: str) -> float:
        """Seconds of a once-per-run phase in the newest earlier run of these cells; 0 when none is known."""
        return 0.0 if self.history is None else self.history.phases.get(phase, 0.0)

    def after_run(self) -> str | None:
        """What `just run-all` adds after the session (conformance pass, report), as learned from an earlier run; None
        when no run of these cells recorded it."""
        steps = {p: self._learned_phase(p) for p in (CONFORMANCE, REPORT)}
        if self.history is None or not any(steps.values()):
            return None
        return (
            f"with the conformance pass ({steps[CONFORMANCE]:.0f} s) and report ({steps[REPORT]:.0f} s) that "
            f"`just run-all` adds, as in run {self.history.runs[0]}"
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


def without_unaccepted_terms(cell: Cell, lab: LabSpec) -> Cell:
    """The cell, unavailable with the reason and the opt-in when its variant needs a package under its vendor's terms
    that the user has not accepted (harness/config/vendor_terms.py): such a package is not built, so never run."""
    reason = "" if cell.unavailable else lab.unavailable_variant(cell.variant)
    return dataclasses.replace(cell, unavailable=reason) if reason else cell


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
    cells = [without_unaccepted_terms(cell, all_labs[cell.lab]) for cell in cells]
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
    for name in datasets_of(cells):  # a generated dataset not built yet is built by the run (ensure_datasets)
        if manifest.present(name) or manifest.find(name).committed:
            manifest.check(name)
    for name in labs_of(cells) if options.check_tools else ():
        all_labs[name].check_requirements()
    labs = builds_of(cells, all_labs)
    budget = profile.budget
    if options.budget_min is not None and options.budget_min <= 0:
        budget = None
    elif options.budget_min is not None:
        budget = (
            dataclasses.replace(budget, minutes=options.budget_min)
            if budget
            else BudgetSpec(options.budget_min, profile.stopping.min_rounds)
        )
    job = with_overrides(profile.job, options.job_overrides)
    design = DESIGNS[design_name]
    return Plan(
        profile.name,
        cells,
        labs,
        isa,
        job,
        {level.name: level for level in levels},
        design,
        profile.stopping,
        profile.cold,
        budget,
        tuple(experiments),
        profile.peak_rss_runs,
        unswitchable_cells(cells, labs, isa),
        load_history(options.results_dir, design.name, job, [c.cell_id for c in cells]),
        _shot_costs([c for c in cells if c.measure == SINGLE_SHOT], manifest, options.results_dir),
    )


def _shot_costs(shots: list[Cell], manifest: Manifest, results_dir: pathlib.Path) -> ShotCosts:
    """What the single-shot cells cost up front; earlier runs' rows are read only when there are such cells (a plan
    without any does not parse them)."""
    if not shots:
        return ShotCosts()
    return ShotCosts({c.dataset: manifest.find(c.dataset).bytes for c in shots}, load_call_rates(results_dir))


def unswitchable_cells(cells: list[Cell], labs: dict[str, LabSpec], isa: IsaTable) -> frozenset[str]:
    """Cells at an ISA level their build declares no switch for (lab.toml `reports` names the [isa_switches] table):
    the run records them as not applicable, so they cost nothing."""
    found = set()
    for cell in cells:
        lab = labs[cell.target]
        reports, version = lab.reported_runtime(), lab.expected_version()
        if cell.isa_level == "native" or reports is None or version is None:
            continue
        if not isa.has_switches(reports, version, cell.isa_level):
            found.add(cell.cell_id)
    return frozenset(found)


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


def _cells_text(runnable: int, unswitchable: int) -> str:
    """'30 cells', '30 cells not applicable (no ISA switch)' or '28 cells, 2 not applicable (no ISA switch)'."""
    if not unswitchable:
        return f"{runnable} cells"
    if not runnable:
        return f"{unswitchable} cells not applicable (no ISA switch)"
    return f"{runnable} cells, {unswitchable} not applicable (no ISA switch)"


def ensure_datasets(plan: Plan, options: RunOptions, say: Callable[[str], None]) -> None:
    """Builds the generated datasets the plan's cells read that are not there yet (harness/config/datasets.py), each
    checked against the manifest; a run calls it before anything is measured."""
    manifest = load_manifest(options.datasets_dir)
    for name in datasets_of(plan.cells):
        manifest.ensure(name, say)


def plan_summary(plan: Plan) -> str:
    """Cells per experiment, ISA level and runtime, and the estimated duration."""
    counts: dict[tuple[str, str, str], list[int]] = {}
    for cell in plan.cells:
        key = (cell.experiment, cell.isa_level, "" if cell.runtime == DEFAULT_RUNTIME else f" on {cell.runtime}")
        count = counts.setdefault(key, [0, 0])
        count[cell.cell_id in plan.not_applicable] += 1
    groups = len({group_key(c) for c in plan.cells})
    na = f" ({len(plan.not_applicable)} not applicable: no ISA switch)" if plan.not_applicable else ""
    lines = [
        f"profile {plan.profile_name}: {len(plan.cells)} cells{na} in {groups} groups, design {plan.design.name}",
        *(f"  {exp} @ {level}{runtime}: {_cells_text(n, skip)}" for (exp, level, runtime), (n, skip) in counts.items()),
        *(f"  {n} unavailable, {reason}" for reason, n in _unavailable(plan.cells).items()),
        f"estimate: {plan.estimate()}",
    ]
    return "\n".join(lines)


def _unavailable(cells: list[Cell]) -> Counter[str]:
    """How many cells are unavailable (never run: a row with the reason), by reason."""
    return Counter(cell.unavailable for cell in cells if cell.unavailable)
