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
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass
from typing import Protocol

from harness.errors import PinningError
from harness.records import DEFAULT_RUNTIME, Cell


@dataclass(frozen=True)
class Placement:
    """One process of a slot: the cell, the CPU set it is pinned to, and the benchmark running beside it."""

    cell: Cell
    cpuset: str
    partner: str | None = None


#: Processes started together (one, or a duet's two).
Slot = tuple[Placement, ...]


def group_key(cell: Cell) -> tuple[str, str, str, str]:
    """(ISA level, experiment, group, runtime): the cells whose ratios are taken against one baseline."""
    return cell.isa_level, cell.experiment, cell.group, cell.runtime


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

    def units(self, cells: list[Cell]) -> list[Unit]:
        """The planned cells cut into units, in run order."""
        ...

    def round(self, cells: list[Cell], round_index: int, lab_cpus: tuple[str, ...]) -> list[Slot]:
        """The slots of one round of a unit's still-active cells."""
        ...


def _by(cells: list[Cell], key) -> list[Unit]:
    units: dict[tuple, list[Cell]] = {}
    for cell in cells:
        units.setdefault(key(cell), []).append(cell)
    return [Unit("/".join(part for part in k if part != DEFAULT_RUNTIME), tuple(v)) for k, v in units.items()]


def _shuffled(cells: list[Cell], round_index: int) -> list[Cell]:
    """A fresh order per unit and round, reproducible across resumes (seeded by names, not by time)."""
    order = list(cells)
    first = cells[0]
    runtime = "" if first.runtime == DEFAULT_RUNTIME else f"/{first.runtime}"
    seed = zlib.crc32(f"{first.isa_level}/{first.experiment}/{first.group}{runtime}#{round_index}".encode())
    random.Random(seed).shuffle(order)
    return order


class SequentialDesign:
    """Every cell of an ISA level once per round, in plan order."""

    name = "sequential"
    lab_cpus_needed = 1

    def units(self, cells: list[Cell]) -> list[Unit]:
        return _by(cells, lambda c: (c.isa_level,))

    def round(self, cells: list[Cell], round_index: int, lab_cpus: tuple[str, ...]) -> list[Slot]:
        return [(Placement(cell, lab_cpus[0]),) for cell in cells]


class InterleavedDesign:
    """One group at a time; each round runs its cells once, in a fresh random order."""

    name = "interleaved"
    lab_cpus_needed = 1

    def units(self, cells: list[Cell]) -> list[Unit]:
        return _by(cells, group_key)

    def round(self, cells: list[Cell], round_index: int, lab_cpus: tuple[str, ...]) -> list[Slot]:
        return [(Placement(cell, lab_cpus[0]),) for cell in _shuffled(cells, round_index)]


class DuetDesign:
    """One group at a time; each benchmark runs at the same time as the baseline, on the other CPU."""

    name = "duet"
    lab_cpus_needed = 2

    def units(self, cells: list[Cell]) -> list[Unit]:
        return _by(cells, group_key)

    def round(self, cells: list[Cell], round_index: int, lab_cpus: tuple[str, ...]) -> list[Slot]:
        if len(lab_cpus) < 2:
            raise PinningError("the duet design needs two lab CPUs", "pass --cpuset with two CPUs (e.g. 0,1), or choose another design")
        first, second = (lab_cpus[0], lab_cpus[1]) if round_index % 2 else (lab_cpus[1], lab_cpus[0])
        baseline = next((c for c in cells if c.benchmark == c.baseline), None)
        others = [c for c in _shuffled(cells, round_index) if c.benchmark != c.baseline]
        if baseline is None:  # the baseline failed or is not planned: no pairs, run alone
            return [(Placement(cell, first),) for cell in others]
        if not others:
            return [(Placement(baseline, first),)]
        return [(Placement(cell, first, baseline.benchmark), Placement(baseline, second, cell.benchmark)) for cell in others]


#: The visible registry of designs by name (the names profiles.toml uses).
DESIGNS: dict[str, Design] = {d.name: d for d in (SequentialDesign(), InterleavedDesign(), DuetDesign())}
