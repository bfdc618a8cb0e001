"""What a run will measure, resolved before anything is built: the options a run was started with, and the plan they
resolve to (profile, experiments, cells, runtimes, ISA levels, job, stopping rule, budget); plan_summary.py shows it."""

from __future__ import annotations

import dataclasses
import pathlib
import time
from collections.abc import Callable
from dataclasses import dataclass

from harness.config.data.datasets import load_manifest
from harness.config.experiment.experiment_checks import CheckContext, check_experiments, check_not_empty
from harness.config.experiment.experiments import load_experiments, select_experiments
from harness.config.experiment.profiles import BudgetSpec, Profile, Stopping, find_profile, load_profiles
from harness.config.isa import IsaLevel, IsaTable, load_isa_table
from harness.config.lab.lab_catalog import load_lab_catalog
from harness.config.lab.labs import LabSpec, load_labs
from harness.config.lab.library_switches import PUBLISHER_VERSIONS, with_runtimes
from harness.config.lab.setting_switches import with_setting_switches
from harness.model.arch import host_arch
from harness.model.cells import Cell, ColdSettings, JobSettings
from harness.model.defaults import (
    CELL_TIMEOUT_S,
    DATASETS_DIR,
    DEFAULT_PROFILE,
    EXPERIMENTS_DIR,
    LABS_DIR,
    PROFILES_FILE,
    RESULTS_DIR,
)
from harness.model.errors import UnknownNameError
from harness.model.experiment import Experiment
from harness.model.folder.records import COLD, REPLICATED, SINGLE_SHOT
from harness.model.folder.run_records import CONFORMANCE, PREPARE, REPORT
from harness.planning.anchor_check import check_native_anchors
from harness.planning.designs import DESIGNS, Design, group_key
from harness.planning.estimate import (
    UNKNOWN_PROCESS_S,
    ShotCosts,
    describe_estimate,
    learned_round_seconds,
    modelled_round_seconds,
    round_seconds,
)
from harness.planning.history import CostHistory, load_history
from harness.planning.plan import (
    builds_of,
    claimed_benchmarks,
    datasets_of,
    levels_by_benchmark,
    plan_cells,
    runtimes_by_benchmark,
    with_aa_copies,
)
from harness.planning.plan_parts import (
    budget_text,
    check_inputs,
    shot_costs_of,
    unswitchable_cells,
    until_decided,
    with_budget,
    with_overrides,
    without_unaccepted_terms,
)


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
    warm_cpuset: str | None = None  # where a pipelined design warms (planning/warm_cpus.py; None: the harness's CPU)
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
    until_decided: bool = False  # measure until every decidable claim is decided, at most max_min (plan_parts.py)
    max_min: float | None = None  # --until-decided's limit in minutes (None: UNTIL_DECIDED_MINUTES)
    wait: bool = False  # queue behind a measurement that holds a lab CPU instead of stopping (harness/host/cpu_lock.py)
    clock: Callable[[], float] = time.monotonic  # what the budget is kept with (tests pass a simulated clock)
    check_tools: bool = True  # False: plan without the labs' programs (`harness check` on a machine without them)


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
    explains: bool = False  # the profile switches the publishers' factors (library versions, run settings): `explain`

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
                for u in self.design.units(
                    [c for c in steady if c not in shots], lambda c: self.labs[c.target].shares_with_other_groups(c)
                )
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
        return text if self.budget is None else f"{text}; {budget_text(self.budget, self.stopping.min_rounds)}"

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


def resolve_plan(options: RunOptions) -> Plan:
    """Loads every data file and validates the selection before anything runs or is written."""
    profile = find_profile(load_profiles(options.profiles_file), options.profile)
    experiments = select_experiments(
        load_experiments(options.experiments_dir), list(options.experiments or profile.experiments)
    )
    isa = load_isa_table(labs_dir=options.labs_dir)
    labs = {  # the declared models a run's builds take come from its datasets folder
        name: dataclasses.replace(lab, models_from=options.datasets_dir)
        for name, lab in load_labs(options.labs_dir).items()
    }
    all_labs = with_runtimes(labs, options.runtimes or profile.runtimes, experiments)
    manifest = load_manifest(options.datasets_dir)
    context = CheckContext(all_labs, isa, manifest, load_lab_catalog(options.labs_dir))
    check_experiments(experiments, context)  # every name they use, before anything is planned
    cells = _selected_cells(options, profile, experiments, isa, all_labs)
    design_name = options.design or profile.design
    if design_name not in DESIGNS:
        raise UnknownNameError("design", design_name, DESIGNS)
    if profile.aa_copies and DESIGNS[design_name].shares_process:
        cells = with_aa_copies(cells, lambda cell: all_labs[cell.lab].paired_format is not None)
    planned = {c.isa_level for c in cells}
    levels = [level for level in isa.levels_for(host_arch()).values() if level.name in planned]
    check_inputs(cells, manifest, all_labs, options.check_tools)
    labs = builds_of(cells, all_labs)
    budget, stopping = with_budget(profile.budget, options.budget_min, profile.stopping.min_rounds), profile.stopping
    if options.until_decided:
        budget, stopping = until_decided(profile.budget, profile.stopping, options.max_min)
    job = with_overrides(profile.job, options.job_overrides)
    design = DESIGNS[design_name]
    check_native_anchors(job, design.shares_process, cells, all_labs)
    return Plan(
        profile.name,
        cells,
        labs,
        isa,
        job,
        {level.name: level for level in levels},
        design,
        stopping,
        profile.cold,
        budget,
        tuple(experiments),
        profile.peak_rss_runs,
        unswitchable_cells(cells, labs, isa),
        load_history(options.results_dir, design.name, job, [c.cell_id for c in cells]),
        shot_costs_of([c for c in cells if c.measure == SINGLE_SHOT], manifest, options.results_dir),
        profile.publisher_settings or PUBLISHER_VERSIONS in (options.runtimes or profile.runtimes),
    )


def _selected_cells(
    options: RunOptions, profile: Profile, experiments: list[Experiment], isa: IsaTable, all_labs: dict[str, LabSpec]
) -> list[Cell]:
    """The cells the options and the profile select from the experiments (a variant under terms not accepted made
    unavailable); an empty selection is a usage error."""
    per_benchmark = levels_by_benchmark(isa, host_arch(), list(options.isa_levels or profile.isa_levels), experiments)
    runtimes = runtimes_by_benchmark(all_labs, list(options.runtimes or profile.runtimes), experiments)
    benchmarks = (
        options.benchmarks or profile.benchmarks or (claimed_benchmarks(experiments) if profile.only_claimed else None)
    )
    cells = plan_cells(
        experiments, list(isa.levels_for(host_arch()).values()), benchmarks, options.variants, per_benchmark, runtimes
    )
    cells = [without_unaccepted_terms(cell, all_labs[cell.lab]) for cell in cells]
    if profile.publisher_settings:  # each run setting of the write-ups' publishers, one at a time
        cells = with_setting_switches(cells, experiments, all_labs)
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
    return cells


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


def ensure_datasets(plan: Plan, options: RunOptions, say: Callable[[str], None]) -> None:
    """Builds the generated datasets the plan's cells read that are not there yet (harness/config/data/datasets.py),
    each checked against the manifest; a run calls it before anything is measured."""
    manifest = load_manifest(options.datasets_dir)
    for name in datasets_of(plan.cells):
        manifest.ensure(name, say)
