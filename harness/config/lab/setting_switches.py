"""The explanation's run-setting switches: each run setting a write-up's publisher ran with (its
`[hardware.<key>.setup]` gc and tiered_compilation, read as the lab's setting values: harness/model/published_setup.py)
that differs from what a cell runs with, one at a time, as a copy of the cell at a place of its own
("10.0.12[tiered_compilation=off]": harness/model/places.py). A profile asks for them with `publisher_settings = true`
(profile `explain`); the report compares each copy's ratio with the figure's (analysis/compute/verdicts/explained_by.py).

A switch is planned only where it can take effect: the cell's lab declares the setting and value (lab.toml
[run_settings]), the value needs no more CPUs than a measured process gets (`min_cpus`: Server GC needs 2, and every
design pins each process to one CPU of the lab's set: PROCESS_CPUS), and the cell runs on the lab's own runtime build (a
build with another library version is a switch already: one factor at a time). Each copy is planned at its cell's ISA
level, after the level's other cells (the level stays the outer loop of the plan)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from harness.config.lab.labs import LabSpec
from harness.model.cells import Cell
from harness.model.experiment import Experiment
from harness.model.folder.records import COLD
from harness.model.places import is_switched
from harness.model.published_setup import publisher_run_settings

#: The CPUs one measured process gets: every design pins each process to one CPU of the lab's set
#: (harness/planning/designs.py).
PROCESS_CPUS = 1


def publisher_settings(exp: Experiment) -> list[tuple[str, str]]:
    """Every (setting, value) a publisher of the experiment ran with, over its published machines, in order."""
    found = [item for hardware in exp.hardware.values() for item in publisher_run_settings(hardware.setup).items()]
    return list(dict.fromkeys(found))


def setting_switches(exp: Experiment, lab: LabSpec, cell: Cell) -> list[tuple[str, str]]:
    """The publisher's settings this cell does not run with and could: declared by its lab, taking effect in a process
    on PROCESS_CPUS CPUs, different from the cell's own value (or, where it asks none, from the setting's default)."""
    own = dict(cell.run_settings)
    switches = []
    for name, value in publisher_settings(exp):
        setting = lab.run_settings.get(name)
        if setting is None or value not in setting.values or setting.values[value].needs_cpus(value) > PROCESS_CPUS:
            continue
        if own.get(name, setting.default) != value:
            switches.append((name, value))
    return switches


def with_setting_switches(cells: list[Cell], experiments: Iterable[Experiment], labs: dict[str, LabSpec]) -> list[Cell]:
    """The cells and, for each cell on its lab's own runtime, a copy per setting switch (setting_switches), each after
    the other cells of its ISA level."""
    by_id = {exp.id: exp for exp in experiments}
    copies = []
    for cell in cells:
        if cell.unavailable or cell.measure == COLD or cell.switched or is_switched(cell.runtime):
            continue
        for name, value in setting_switches(by_id[cell.experiment], labs[cell.lab], cell):
            settings = tuple(sorted({**dict(cell.run_settings), name: value}.items()))
            copies.append(dataclasses.replace(cell, run_settings=settings, switched=((name, value),)))
    levels = list(dict.fromkeys(c.isa_level for c in cells))
    return sorted(cells + copies, key=lambda c: levels.index(c.isa_level))  # stable: plan order within a level
