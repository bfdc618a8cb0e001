"""Replication designs: how a run places the replicates (fresh processes) of its cells in time.

A design cuts the planned cells into units that are replicated together, and lays out one round
of a unit as slots; a slot is one process, or two processes started at the same time on two CPUs.
Every ratio is a variant over its group's baseline at the same ISA level, so what matters is how
close in time (and under how much of the same machine noise) the two sides of a pair run:

- sequential: a unit is an ISA level; a round runs every cell of the level once, in plan order.
  The two sides of a pair are up to minutes apart.
- interleaved: a unit is one group at one level; a round runs its cells once each in a fresh
  random order (seeded by unit and round, so a resumed run repeats it). Pairs are seconds apart,
  and no cell always runs first or after the same neighbour.
- duet: a unit is one group at one level; a round runs each benchmark at the same time as the
  group's baseline, each on its own CPU, swapping CPUs every round (after Bulej et al., ICPE 2020).
- paired: a unit is one group at one level on one runtime; a round is one fresh process that measures every cell of the
  group, alternating them in short bursts in a fresh random order each burst round (the lab's `paired` verb). A ratio
  is taken burst against burst inside the process, and processes are still the replicates. Two sides that cannot share
  a process (ISA levels and runtimes are process-wide, and every group is one level on one runtime) are paired by round
  as in the interleaved design; a lab without the verb (lab.toml `paired_format`) gets the interleaved layout.
- paired-shared: as paired, but a unit is every group of steady cells at one level on one runtime build with the same
  run settings, so one process per round measures (and warms, once) the cells of all its groups that still want
  rounds. The cells of one group still share each process, so each group's ratios are taken as in the paired design;
  a group of one cell, a single-shot group and a group of a lab without the verb keep a unit of their own.
- paired-pipelined: as paired, but each process starts on the warm CPU (the harness's), is verified and warmed there
  while the one before it is timed on the lab's CPU, and is then handed over (harness/backends/handover.py): every
  thread moved to the lab's CPU, a few joint passes to re-warm it, then the same bursts. What a process measures is
  the paired design's; the lab's CPU spends its time on bursts instead of warm-ups (docs/findings.md, "Warming the
  next process on the other CPU"). A lab whose paired verb cannot be handed over (lab.toml `paired_handoff`) gets the
  paired layout.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from harness.config.experiment.profiles import DESIGN_NAMES
from harness.model.cells import Cell
from harness.model.errors import PinningError
from harness.model.folder.records import DEFAULT_RUNTIME, STEADY
from harness.model.groups import GroupKey


@dataclass(frozen=True)
class Placement:
    """One process of a slot: the cell, the CPU set it is pinned to, and the benchmark running beside it."""

    cell: Cell
    cpuset: str
    partner: str | None = None
    companions: tuple[Cell, ...] = ()  # the other cells measured in the same process (paired design)

    @property
    def cells(self) -> tuple[Cell, ...]:
        """Every cell this process measures."""
        return (self.cell, *self.companions)


#: Processes started together (one, or a duet's two).
Slot = tuple[Placement, ...]


def group_key(cell: Cell) -> GroupKey:
    """(ISA level, experiment, group, place): the cells whose ratios are taken against one baseline (the place: the
    runtime, and the run settings an explanation switched, which a process cannot change for some of its cells)."""
    return GroupKey(cell.isa_level, cell.experiment, cell.group, cell.place)


@dataclass(frozen=True)
class Unit:
    """Cells replicated together, round after round, until their groups stop."""

    name: str
    cells: tuple[Cell, ...]

    @property
    def isa_level(self) -> str:
        """The ISA level of the unit's cells (a unit never spans levels)."""
        return self.cells[0].isa_level


class Design(Protocol):
    """A way of laying out replicates."""

    name: str
    lab_cpus_needed: int
    shares_process: bool  # True: a slot's placement may measure several cells in one process (the lab's `paired` verb)
    pipelined: bool  # True: each process warms on the harness's CPU and is handed to the lab's (paired-pipelined)

    def units(self, cells: list[Cell], shares: Callable[[Cell], bool] = lambda cell: True) -> list[Unit]:
        """The planned cells cut into units, in run order; `shares` tells a cell that may share its process with other
        groups' cells (its lab's `paired` verb measures several cells in one, and its variant is not kept apart:
        LabSpec.shares_with_other_groups)."""
        ...

    def round(self, cells: list[Cell], round_index: int, lab_cpus: tuple[str, ...]) -> list[Slot]:
        """The slots of one round of a unit's still-active cells."""
        ...


def _by(cells: list[Cell], key) -> list[Unit]:
    units: dict[tuple, list[Cell]] = {}
    for cell in cells:
        units.setdefault(key(cell), []).append(cell)
    return [Unit("/".join(part for part in k if part not in ("", DEFAULT_RUNTIME)), tuple(v)) for k, v in units.items()]


def _shuffled(cells: list[Cell], round_index: int) -> list[Cell]:
    """A fresh order per unit and round, reproducible across resumes (seeded by names, not by time)."""
    order = list(cells)
    first = cells[0]
    runtime = "" if first.place == DEFAULT_RUNTIME else f"/{first.place}"
    seed = zlib.crc32(f"{first.isa_level}/{first.experiment}/{first.group}{runtime}#{round_index}".encode())
    random.Random(seed).shuffle(order)
    return order


class SequentialDesign:
    """Every cell of an ISA level once per round, in plan order."""

    name = "sequential"
    lab_cpus_needed = 1
    shares_process = False
    pipelined = False

    def units(self, cells: list[Cell], shares: Callable[[Cell], bool] = lambda cell: True) -> list[Unit]:
        return _by(cells, lambda c: (c.isa_level,))

    def round(self, cells: list[Cell], round_index: int, lab_cpus: tuple[str, ...]) -> list[Slot]:
        return [(Placement(cell, lab_cpus[0]),) for cell in cells]


class InterleavedDesign:
    """One group at a time; each round runs its cells once, in a fresh random order."""

    name = "interleaved"
    lab_cpus_needed = 1
    shares_process = False
    pipelined = False

    def units(self, cells: list[Cell], shares: Callable[[Cell], bool] = lambda cell: True) -> list[Unit]:
        return _by(cells, group_key)

    def round(self, cells: list[Cell], round_index: int, lab_cpus: tuple[str, ...]) -> list[Slot]:
        return [(Placement(cell, lab_cpus[0]),) for cell in _shuffled(cells, round_index)]


class DuetDesign:
    """One group at a time; each benchmark runs at the same time as the baseline, on the other CPU."""

    name = "duet"
    lab_cpus_needed = 2
    shares_process = False
    pipelined = False

    def units(self, cells: list[Cell], shares: Callable[[Cell], bool] = lambda cell: True) -> list[Unit]:
        return _by(cells, group_key)

    def round(self, cells: list[Cell], round_index: int, lab_cpus: tuple[str, ...]) -> list[Slot]:
        if len(lab_cpus) < 2:
            raise PinningError(
                "the duet design needs two lab CPUs", "pass --cpuset with two CPUs (e.g. 0,1), or choose another design"
            )
        first, second = (lab_cpus[0], lab_cpus[1]) if round_index % 2 else (lab_cpus[1], lab_cpus[0])
        baseline = next((c for c in cells if c.benchmark == c.baseline), None)
        others = [c for c in _shuffled(cells, round_index) if c.benchmark != c.baseline]
        if baseline is None:  # the baseline failed or is not planned: no pairs, run alone
            return [(Placement(cell, first),) for cell in others]
        if not others:
            return [(Placement(baseline, first),)]
        return [
            (Placement(cell, first, baseline.benchmark), Placement(baseline, second, cell.benchmark)) for cell in others
        ]


class PairedDesign:
    """One group at a time; each round is one process measuring all its cells in alternating bursts."""

    name = "paired"
    lab_cpus_needed = 1
    shares_process = True
    pipelined = False

    def units(self, cells: list[Cell], shares: Callable[[Cell], bool] = lambda cell: True) -> list[Unit]:
        return _by(cells, group_key)

    def round(self, cells: list[Cell], round_index: int, lab_cpus: tuple[str, ...]) -> list[Slot]:
        first, *rest = _shuffled(cells, round_index)  # the order members are bound and warmed in, fresh each round
        return [(Placement(first, lab_cpus[0], companions=tuple(rest)),)]


class PairedSharedDesign(PairedDesign):
    """Every group of one level and runtime build at a time; each round is one process measuring all their cells that
    still want rounds, in alternating bursts, after one joint warm-up."""

    name = "paired-shared"

    def units(self, cells: list[Cell], shares: Callable[[Cell], bool] = lambda cell: True) -> list[Unit]:
        sizes: dict[GroupKey, int] = {}
        for cell in cells:
            sizes[group_key(cell)] = sizes.get(group_key(cell), 0) + 1
        # a group one of whose cells may not share a process with other groups keeps a process of its own, whole
        apart = {group_key(cell) for cell in cells if not shares(cell)}

        def key(cell: Cell) -> tuple[str, ...]:
            if cell.measure != STEADY or sizes[group_key(cell)] < 2 or group_key(cell) in apart:
                return group_key(cell)
            return cell.isa_level, cell.target, cell.place, cell.settings_text, "shared"

        return _by(cells, key)


class PairedPipelinedDesign(PairedDesign):
    """As paired; each process warmed on the harness's CPU while the one before it is timed, then handed over."""

    name = "paired-pipelined"
    pipelined = True


def process_groups(cells: Sequence[Cell]) -> list[GroupKey]:
    """The groups whose cells a process measures, in the order they first appear."""
    return list(dict.fromkeys(group_key(c) for c in cells))


def burst_seed(cells: tuple[Cell, ...], round_index: int) -> int:
    """The seed of a paired process's burst order: fixed by the unit and round, so a resumed run repeats it."""
    first = cells[0]
    return (
        zlib.crc32(f"{first.isa_level}/{first.experiment}/{first.group}/{first.place}#{round_index}/bursts".encode())
        & 0x7FFFFFFF
    )


_ALL_DESIGNS: tuple[Design, ...] = (
    SequentialDesign(),
    InterleavedDesign(),
    DuetDesign(),
    PairedDesign(),
    PairedSharedDesign(),
    PairedPipelinedDesign(),
)
#: The visible registry of designs by name (the names profiles.toml uses).
DESIGNS: dict[str, Design] = {d.name: d for d in _ALL_DESIGNS}
if tuple(DESIGNS) != DESIGN_NAMES:  # a design added here is a word profiles.toml may use: name it there too
    raise RuntimeError(
        f"designs {tuple(DESIGNS)} differ from harness/config/experiment/profiles.py DESIGN_NAMES {DESIGN_NAMES}"
    )


def layout(
    design: Design,
    cells: list[Cell],
    round_index: int,
    lab_cpus: tuple[str, ...],
    can_share: bool,
    can_hand_over: bool = False,
) -> tuple[Design, list[Slot]]:
    """The design that lays out a unit's round and its slots: a design that shares processes falls back to the
    interleaved layout for a lab that cannot measure several cells in one process (or a single cell, which needs no
    pairing); the pipelined design to the paired one for a lab whose paired verb cannot be handed over."""
    if design.pipelined and not can_hand_over:
        design = DESIGNS["paired"]
    if design.shares_process and (not can_share or len(cells) < 2):
        design = DESIGNS["interleaved"]
    return design, design.round(cells, round_index, lab_cpus)
