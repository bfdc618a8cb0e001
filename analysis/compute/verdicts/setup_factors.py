"""The publisher's setup beside this run's: one row per factor (OS, CPU, runtime build, GC, method, data, …) and
published machine, with whether the lab can change that factor on this host (tables/setup.csv; the report's "Setup"
section). The publisher's side is the experiment's `[hardware.<key>.setup]` (harness/model/published_setup.py); this
run's side is read from its environment, its cells and the labs it ran (analysis/compute/verdicts/setup_here.py)."""

from __future__ import annotations

import pathlib
from dataclasses import dataclass

import pandas as pd

from analysis.compute.verdicts.setup_here import RunSide
from harness.config.data.datasets import load_manifest
from harness.config.lab.labs import load_labs
from harness.config.lab.setting_switches import PROCESS_CPUS
from harness.model.errors import HarnessError
from harness.model.experiment import Experiment, Hardware
from harness.model.folder.environment_record import EnvironmentRecord
from harness.model.folder.run_records import RunRecord
from harness.model.places import is_switched
from harness.model.published_setup import NOT_STATED, SETTING_FIELDS

#: What "can the lab change it here" says, in the table's `changeable` column.
SAME = "same"
YES = "yes"
NO = "no"
NOT_YET = "not yet"
UNSTATED = "not stated"

#: The factors an explanation switches, by the Setup table's names: a library version, a run setting (lab.toml).
LIBRARY_FACTOR = "Library versions"
GC_FACTOR, TIERED_FACTOR = "GC", "Tiered compilation"
SETTING_FACTORS = {"gc": GC_FACTOR, "tiered_compilation": TIERED_FACTOR}

COLUMNS = ["experiment", "hardware", "factor", "published", "this_run", "changeable", "how"]


@dataclass(frozen=True)
class Factor:
    """One row: a factor as published and as measured here, and whether (and how) this host can change it."""

    name: str
    published: str
    this_run: str
    changeable: str
    how: str = ""


def run_setup_table(
    experiments: list[Experiment],
    cells: pd.DataFrame,
    env: EnvironmentRecord | None,
    run: RunRecord,
    labs_dir: pathlib.Path,
) -> pd.DataFrame:
    """setup_table() of a loaded run, against the labs as the run had them and the datasets' manifest; this run's side
    is that of the places figures are read at (an explain run's switched places are its explanation, not its setup)."""
    try:
        manifest = load_manifest()
    except HarnessError:  # a copy of the analysis without datasets/: the data row says less, nothing fails
        manifest = None
    if not cells.empty:
        cells = cells[~cells["runtime_requested"].astype(str).map(is_switched)]
    return setup_table(experiments, cells, RunSide(env, run, load_labs(labs_dir, accepted=frozenset()), manifest))


def setup_table(experiments: list[Experiment], cells: pd.DataFrame, side: RunSide) -> pd.DataFrame:
    """Every factor of every published machine of the run's experiments (one row per experiment, hardware, factor)."""
    rows = []
    for exp in experiments:
        mine = cells[cells["experiment"] == exp.id] if not cells.empty else cells
        if mine.empty or not exp.hardware:
            continue
        for hardware in exp.hardware.values():
            for factor in factors(exp, hardware, mine, side):
                rows.append(
                    [
                        exp.id,
                        hardware.key,
                        factor.name,
                        factor.published,
                        factor.this_run,
                        factor.changeable,
                        factor.how,
                    ]
                )
    return pd.DataFrame(rows, columns=COLUMNS)


def factors(exp: Experiment, hardware: Hardware, cells: pd.DataFrame, side: RunSide) -> list[Factor]:
    """The factors of one published machine, in the report's order."""
    setup = hardware.setup
    lab = _lab_of(exp, hardware, cells)
    return [
        _fixed("OS", setup.os, side.os(), "the lab's processes run on this host's Linux"),
        _fixed("CPU", setup.cpu, side.cpu(), "this host's CPU"),
        _microarchitecture(hardware, side),
        _fixed("Hybrid cores", setup.hybrid, side.hybrid(), "this host's CPU"),
        _fixed("Cores", setup.cores, side.cores(), "this host's CPU; the lab pins each process to its CPU set"),
        _isa(hardware, cells, side, lab),
        _runtime(hardware, cells, side, lab),
        _libraries(exp, cells, side),
        _gc(setup.gc, cells, side, lab),
        _tiered(setup.tiered_compilation, cells, side, lab),
        _method(setup.method, side),
        Factor("Processes", setup.processes, side.processes(cells), _processes(setup.processes)),
        _fixed("Pinned", setup.pinned, side.pinned(), "the lab always pins its processes", same_if="pinned"),
        _data(setup.data, exp.id, cells, side),
        _fixed("Power", setup.power, side.power(), "this host's power and frequency settings"),
    ]


def _lab_of(exp: Experiment, hardware: Hardware, cells: pd.DataFrame) -> str:
    """The lab whose runtime, run settings and ISA levels stand for this machine: the lab of most of the benchmarks its
    claims name (the first of the run's cells' labs where no claim names one)."""
    named = [
        exp.benchmarks[c.benchmark].lab
        for c in exp.claims
        if c.hardware == hardware.key and c.benchmark in exp.benchmarks
    ]
    return max(dict.fromkeys(named), key=named.count) if named else str(cells["lab"].iloc[0])


def _fixed(name: str, published: str, here: str, why: str, same_if: str = "") -> Factor:
    """A factor of the machine itself: the same only where the two say the same, else not changeable here."""
    if published == NOT_STATED:
        return Factor(name, published, here, UNSTATED)
    if same_if and same_if in published.lower() and same_if in here.lower():
        return Factor(name, published, here, SAME)
    if published.strip().lower() == here.strip().lower():
        return Factor(name, published, here, SAME)
    return Factor(name, published, here, NO, why)


def _microarchitecture(hardware: Hardware, side: RunSide) -> Factor:
    published = side.microarchitecture_name(hardware.microarchitecture) or NOT_STATED
    here = side.host_microarchitecture()
    if published == NOT_STATED:
        return Factor("Microarchitecture", published, here, UNSTATED)
    return Factor("Microarchitecture", published, here, *((SAME, "") if published == here else (NO, "this host's CPU")))


def _isa(hardware: Hardware, cells: pd.DataFrame, side: RunSide, lab: str) -> Factor:
    level = hardware.isa_level
    measured = sorted(set(cells["isa_requested"])) if "isa_requested" in cells else []
    here = ", ".join(f"`{m}`" for m in measured) or "none"
    if level in measured:
        return Factor("ISA level", f"`{level}`", here, SAME, "the claims are read at the published CPU's level")
    state = side.isa_state(level, lab)
    if state is None:
        return Factor("ISA level", f"`{level}`", here, YES, f"`--isa {level}` (not measured in this run)")
    return Factor("ISA level", f"`{level}`", here, NO, state)


def _runtime(hardware: Hardware, cells: pd.DataFrame, side: RunSide, lab: str) -> Factor:
    published = hardware.setup.runtime_build if hardware.setup.stated("runtime_build") else hardware.runtime
    here, same, closest = side.runtime(hardware, cells, lab)
    if same:
        return Factor("Runtime build", published, here, SAME)
    if closest:
        return Factor("Runtime build", published, here, YES, closest)
    return Factor("Runtime build", published, here, NO, side.runtime_choices(lab, hardware))


def _libraries(exp: Experiment, cells: pd.DataFrame, side: RunSide) -> Factor:
    if not exp.published_versions:
        return Factor(LIBRARY_FACTOR, NOT_STATED, side.library_summary(exp, cells)[0], UNSTATED)
    here, differing = side.library_summary(exp, cells)
    published = ", ".join(f"{name} {version}" for name, version in exp.published_versions.items())
    if not differing:
        return Factor(LIBRARY_FACTOR, published, here, SAME)
    varying = {
        package
        for lab in {b.lab for b in exp.benchmarks.values()}
        if lab in side.labs and (spec := side.labs[lab].library_versions) is not None
        for package in spec.packages
        if package not in spec.roles
    }  # what `just explain` switches (lab.toml [library_versions], roles excepted)
    switchable = [d for d in differing if d.split(" ")[0] in varying]
    others = [d for d in differing if d not in switchable]
    rest = f"; not switched: {', '.join(others)} (the lab does not let it vary, or its version is no factor of a cell)"
    if not switchable:
        return Factor(LIBRARY_FACTOR, published, here, NO, "differs: " + ", ".join(others) + rest[rest.index(" (") :])
    return Factor(
        LIBRARY_FACTOR,
        published,
        here,
        YES,
        f"`just explain --experiment {exp.id}` measures each figure also with each of these versions, one at a time: "
        + ", ".join(switchable)
        + (rest if others else ""),
    )


def _gc(published: str, cells: pd.DataFrame, side: RunSide, lab: str) -> Factor:
    here = side.gc(cells)
    if published == NOT_STATED:
        return Factor(GC_FACTOR, published, here, UNSTATED)
    wanted = SETTING_FIELDS["gc"](published)
    if wanted in here.lower():
        return Factor(GC_FACTOR, published, here, SAME)
    if not side.has_setting(lab, "gc", wanted):
        return Factor(GC_FACTOR, published, here, NO, f"lab {lab} has no run setting gc={wanted}")
    needed = side.labs[lab].run_settings["gc"].values[wanted].needs_cpus(wanted)  # lab.toml: Server GC takes 2
    if needed > PROCESS_CPUS:
        return Factor(
            GC_FACTOR,
            published,
            here,
            NO,
            f"gc={wanted} needs {needed} CPUs in a process; the lab pins each process to one CPU of its set "
            f"(this run: {side.cpuset()})",
        )
    return Factor(GC_FACTOR, published, here, YES, f'run setting `gc = "{wanted}"`')


def _tiered(published: str, cells: pd.DataFrame, side: RunSide, lab: str) -> Factor:
    here = side.tiered(cells)
    if published == NOT_STATED:
        return Factor(TIERED_FACTOR, published, here, UNSTATED)
    wanted = SETTING_FIELDS["tiered_compilation"](published)
    if here.startswith(wanted):
        return Factor(TIERED_FACTOR, published, here, SAME)
    if not side.has_setting(lab, "tiered_compilation", wanted):
        return Factor(TIERED_FACTOR, published, here, NO, f"lab {lab} has no run setting for it")
    return Factor(TIERED_FACTOR, published, here, YES, f'run setting `tiered_compilation = "{wanted}"`')


def _data(published: str, exp_id: str, cells: pd.DataFrame, side: RunSide) -> Factor:
    here, own = side.data(cells, exp_id)
    if own:
        return Factor("Data", published, here, SAME, "the write-up's own bytes (datasets/manifest.json)")
    if published == NOT_STATED:
        return Factor("Data", published, here, UNSTATED)
    return Factor("Data", published, here, NO, "the lab measures the fixed bytes of datasets/manifest.json")


def _method(published: str, side: RunSide) -> Factor:
    """A write-up that ran BenchmarkDotNet's default job in fresh processes is matched by a run that did the same; a
    write-up with a job of its own comes nearer with its settings as `--job` values; any other run can measure the
    automatic job beside its own design (the publisher-method profile, `just method-control`)."""
    if published == NOT_STATED:
        return Factor("Method", published, side.method(), UNSTATED)
    default_job = "defaultjob" in published.lower().replace(" ", "") or "default job" in published.lower()
    if side.run.automatic_job and default_job:
        return Factor("Method", published, side.method(), SAME, "BenchmarkDotNet's automatic job in fresh processes")
    if side.run.automatic_job:  # the write-up set its own job: its settings as `--job` values come nearer
        how = "the write-up's own job settings as `--job` values (this run used BenchmarkDotNet's automatic job)"
        return Factor("Method", published, side.method(), YES, how)
    how = "BenchmarkDotNet's automatic job in fresh processes beside this design: `just method-control`"
    return Factor("Method", published, side.method(), YES, how)


def _processes(published: str) -> str:
    if published == NOT_STATED:
        return UNSTATED
    return SAME if published.lower().startswith("yes") else NO
