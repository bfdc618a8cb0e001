"""One run of a slot's processes in the replicate loop (scheduler.py): each process's row contexts and request (one
cell, or a paired process's whole group, each cell with a folder of its own), the processes started together, and
their rows, not stored yet. A part of the session: it reads the run's setup and makes rows with the RowMaker; the loop
(scheduler.py) decides which rounds and slots run, replaces disturbed processes and stores the rows.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from harness.backends.base import CellRequest
from harness.model.cells import Cell
from harness.model.folder.records import DEFAULT_RUNTIME, ResultRow
from harness.model.folder.run_folder import LOGS_DIR, RAW_DIR
from harness.planning.designs import Design, Placement, Slot, Unit, burst_seed, group_key, process_groups
from harness.session.processes.cell_rows import RowMaker
from harness.session.processes.rows import RowContext
from harness.session.processes.session_setup import SessionSetup
from harness.session.rounds.progress import RunProgress

#: The schedule's guess at the process after the one it is about to run (scheduler.py): a unit and round, or None.
Ahead = Callable[[], tuple[Unit, int] | None]
#: The request of the process the schedule guesses comes after the one it is about to run, asked once that one is on
#: the lab's CPU (None for none: the paired-pipelined design warms it meanwhile; a wrong guess costs the harness's CPU
#: a warm-up, never a row).
Following = Callable[[], "CellRequest | None"]


@dataclass(frozen=True)
class SlotRunner:
    """The processes of one slot, started together, and the rows they measured."""

    setup: SessionSetup
    rows: RowMaker
    progress: RunProgress

    def measure(
        self,
        slot: Slot,
        round_index: int,
        design: Design,
        attempt: int = 1,
        take_following: Callable[[], Following] | None = None,
    ) -> list[ResultRow]:
        """The rows of one run of the slot's processes, not stored yet (a process handed over: the one guessed to come
        next, which `take_following` gives, warms while it runs)."""
        processes = [self.process(p, round_index, design, attempt) for p in slot]
        if len(processes) == 1 and processes[0][1].warm_cpuset and take_following is not None:
            processes[0] = (processes[0][0], dataclasses.replace(processes[0][1], then=take_following()))
        for contexts, _ in processes:
            for ctx in contexts:
                self.progress.started(ctx.cell)
        runs = self.setup.backend.run_cells([request for _, request in processes])
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
            rows += [self.rows.row(ctx, member, shared) for ctx, member in zip(contexts, members)]
        return rows

    def process(
        self, placement: Placement, round_index: int, design: Design, attempt: int = 1
    ) -> tuple[list[RowContext], CellRequest]:
        """The row contexts of one process of a slot and its request: one cell, or (paired) every cell of its group,
        each with a folder of its own inside the process's folder."""
        if not placement.companions:
            ctx = self.rows.context(placement, round_index, design.name, attempt)
            return [ctx], self.rows.request(ctx)
        cells, blocks = grouped(placement.cells)
        suffix = f"round-{round_index}" + (f"-attempt-{attempt}" if attempt > 1 else "")
        slug = process_slug(cells)
        store = self.setup.store
        log = store.relative(store.path(LOGS_DIR, f"{slug}.{suffix}.log"))
        contexts = [
            dataclasses.replace(
                self.rows.context(Placement(c, placement.cpuset), round_index, design.name, attempt),
                log_path=log,
                raw_folder=f"{suffix}/{c.slug}",
                process_cells=len(cells),
            )
            for c in cells
        ]
        out_dir = store.path(RAW_DIR, slug, suffix)
        out_dir.mkdir(parents=True, exist_ok=True)
        request = dataclasses.replace(
            self.rows.request(contexts[0], out_dir),
            members=tuple((c, out_dir / c.slug) for c in cells),
            seed=burst_seed(cells, round_index),
            member_blocks=blocks,
            warm_cpuset=self.setup.warm_cpuset if design.pipelined else None,
        )
        return contexts, request


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
