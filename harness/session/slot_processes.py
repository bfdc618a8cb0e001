"""One run of a slot's processes in the replicate loop (scheduler.py): each process's row contexts and request (one
cell, or a paired process's whole group, each cell with a folder of its own), the processes started together, and
their rows, not stored yet. Session inherits these through SlotProcesses, a mixin over CellRows like cell_rows.py's;
they are kept apart from scheduler.py, which decides which rounds and slots run, replaces disturbed processes and
stores the rows.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from harness.backends.base import CellRequest
from harness.model.cells import Cell
from harness.model.records import DEFAULT_RUNTIME, ResultRow
from harness.model.run_folder import LOGS_DIR, RAW_DIR
from harness.planning.designs import Design, Placement, Slot, Unit, burst_seed, group_key, process_groups
from harness.session.cell_rows import CellRows
from harness.session.rows import RowContext

if TYPE_CHECKING:
    from harness.model.groups import GroupKey
    from harness.session.progress import RunProgress
    from harness.session.stopping import GroupStatus

#: The schedule's guess at the process after the one it is about to run, asked once that one is on the lab's CPU: a
#: unit and round, or None for none (the paired-pipelined design warms it meanwhile; a wrong guess costs the harness's
#: CPU a warm-up, never a row).
Ahead = Callable[[], "tuple[Unit, int] | None"]


@dataclass
class SlotProcesses(CellRows):
    """The processes of one slot, started together, and the rows they measured (Session adds the loop around them)."""

    if TYPE_CHECKING:  # Session fields (with defaults, so they cannot come before Session's own fields) and methods
        progress: RunProgress
        warm_cpuset: str | None
        ahead: Ahead | None

        def active_cells(self, unit: Unit, statuses: dict[GroupKey, GroupStatus]) -> list[Cell]:
            ...

        def unit_statuses(self, unit: Unit, rounds_done: int) -> dict[GroupKey, GroupStatus]:
            ...

        def _round_slots(self, cells: list[Cell], round_index: int) -> tuple[Design, list[Slot]]:
            ...

    def _measure_slot(self, slot: Slot, round_index: int, design: Design, attempt: int = 1) -> list[ResultRow]:
        """The rows of one run of the slot's processes, not stored yet (a process handed over: the one guessed to come
        next warms while it runs)."""
        processes = [self._process(p, round_index, design, attempt) for p in slot]
        if len(processes) == 1 and processes[0][1].warm_cpuset:
            guess, self.ahead = self.ahead, None
            processes[0] = (processes[0][0], dataclasses.replace(processes[0][1], then=lambda: self._guessed(guess)))
        for contexts, _ in processes:
            for ctx in contexts:
                self.progress.started(ctx.cell)
        runs = self.backend.run_cells([request for _, request in processes])
        rows = []
        for (contexts, request), run in zip(processes, runs):
            members = (
                [request]
                if len(contexts) == 1
                else [
                    dataclasses.replace(request, cell=ctx.cell, out_dir=folder)
                    for ctx, (_, folder) in zip(contexts, request.members)
                ]
            )
            shared = run if len(contexts) == 1 else dataclasses.replace(run, usage=run.usage.share(len(contexts)))
            rows += [self._row(ctx, member, shared) for ctx, member in zip(contexts, members)]
        return rows

    def _process(
        self, placement: Placement, round_index: int, design: Design, attempt: int = 1
    ) -> tuple[list[RowContext], CellRequest]:
        """The row contexts of one process of a slot and its request: one cell, or (paired) every cell of its group,
        each
        with a folder of its own inside the process's folder."""
        if not placement.companions:
            ctx = self._context(placement, round_index, design.name, attempt)
            return [ctx], self._request(ctx)
        cells, blocks = grouped(placement.cells)
        suffix = f"round-{round_index}" + (f"-attempt-{attempt}" if attempt > 1 else "")
        slug = process_slug(cells)
        log = self.store.relative(self.store.path(LOGS_DIR, f"{slug}.{suffix}.log"))
        contexts = [
            dataclasses.replace(
                self._context(Placement(c, placement.cpuset), round_index, design.name, attempt),
                log_path=log,
                raw_folder=f"{suffix}/{c.slug}",
                process_cells=len(cells),
            )
            for c in cells
        ]
        out_dir = self.store.path(RAW_DIR, slug, suffix)
        out_dir.mkdir(parents=True, exist_ok=True)
        request = dataclasses.replace(
            self._request(contexts[0], out_dir),
            members=tuple((c, out_dir / c.slug) for c in cells),
            seed=burst_seed(cells, round_index),
            member_blocks=blocks,
            warm_cpuset=self.warm_cpuset if design.pipelined else None,
        )
        return contexts, request

    def _guessed(self, guess: Ahead | None) -> CellRequest | None:
        """The request of the process the schedule guesses comes next, when it is one handed-over process; else None."""
        found = guess() if guess is not None else None
        if found is None:
            return None
        unit, round_index = found
        active = self.active_cells(unit, self.unit_statuses(unit, round_index - 1))
        if not active:
            return None
        design, slots = self._round_slots(active, round_index)
        if len(slots) != 1 or len(slots[0]) != 1 or not design.pipelined:
            return None
        return self._process(slots[0][0], round_index, design)[1]


def grouped(cells: Sequence[Cell]) -> tuple[tuple[Cell, ...], tuple[int, ...]]:
    """A process's cells with each group's together (groups in the order they first appear), and, for a process of
    several groups (paired-shared), the size of each group's run of cells: the lab runs a group's bursts back to back
    in every round, so a ratio within a group is still taken between bursts milliseconds apart (empty for one group)."""
    groups = process_groups(cells)
    if len(groups) == 1:
        return tuple(cells), ()
    runs = [tuple(c for c in cells if group_key(c) == g) for g in groups]
    return tuple(c for run in runs for c in run), tuple(len(run) for run in runs)


def unit_slug(cell: Cell) -> str:
    """File-system-safe name of a cell's group (experiment, group, ISA level, runtime): a paired process's folder and
    log."""
    suffix = "" if cell.place == DEFAULT_RUNTIME else f"__{cell.place}"
    return re.sub(r"[^A-Za-z0-9._-]+", "_", f"{cell.experiment}__{cell.group}__{cell.isa_level}{suffix}")


def process_slug(cells: Sequence[Cell]) -> str:
    """A paired process's folder and log name: its group's (unit_slug), or for a process of several groups (the
    paired-shared design) 'shared__' with its lab, ISA level, runtime and run settings."""
    first = cells[0]
    if len(process_groups(cells)) == 1:
        return unit_slug(first)
    suffix = "" if first.place == DEFAULT_RUNTIME else f"__{first.place}"
    settings = f"__{first.settings_text}" if first.settings_text else ""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", f"shared__{first.lab}__{first.isa_level}{suffix}{settings}")
