"""The replicate loop: units of cells, round after round, until each group's stopping rule is met (or the run budget,
harness/session/budget.py, cannot afford another round).

Each round of a unit is laid out by the run's design (sequential, interleaved, duet); every
process's row is stored the moment it ends. Before each ISA level and at the end, the calibration
workload is timed on the lab CPUs, so the report can show how much the machine drifted.
A resumed run replays the same layout and skips the processes that already have a row.
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass

from harness.backends.base import CellRequest
from harness.session.budget import CALIBRATION_S, RunBudget, affordable_rounds, round_fits, typical_process_s
from harness.session.calibration import WORKLOADS, calibrate
from harness.model.run_folder import CALIBRATION_FILE, GROUPS_FILE, LOGS_DIR, RAW_DIR
from harness.planning.designs import Design, Placement, Slot, Unit, burst_seed, group_key, layout
from harness.session.progress import RunProgress
from harness.planning.estimate import cold_cell_seconds, round_seconds
from harness.model.records import COLD, DEFAULT_RUNTIME, ResultRow, RowStatus, STEADY, row_key
from harness.model.cells import Cell, ColdSettings
from harness.model.rows import RowContext
from harness.session.stopping import GroupStatus, group_status
from harness.model.groups import BUDGET, row_group
from harness.model.run_records import GroupRecord
from harness.session.cell_rows import CellRows

#: Row statuses a resumed run does not run again.
FINISHED = (RowStatus.OK, RowStatus.UNVERIFIED, RowStatus.SKIPPED)


@dataclass
class Session(CellRows):
    """Everything the replicate loop needs, fixed for one run (or one resumed session of it): the fields of CellRows
    (store, backend, design, stopping rule, job, probes, levels, labs, lab CPUs, profile, datasets, cell timeout), then
    these."""

    progress: RunProgress
    calibrate: bool = True
    cold: ColdSettings = ColdSettings()
    budget: RunBudget | None = None

    def __post_init__(self) -> None:
        self.rows: dict[str, ResultRow] = dict(self.store.rows())
        self.broken: set[str] = set()

    # -- the loop ---------------------------------------------------------------------------------------

    def run(self, cells: list[Cell]) -> None:
        """Records cells that cannot run, then runs every unit of the rest, level by level."""
        runnable = [c for c in cells if self._runnable(c, cells)]
        for cell in cells:
            if cell not in runnable and not self._finished(row_key(cell.cell_id, 1)):
                self._store(self._unrunnable_row(cell))
        units = self.design.units([c for c in runnable if c.measure == STEADY])
        cold = [c for c in runnable if c.measure == COLD]
        level = None
        for index, unit in enumerate(units):
            if unit.isa_level != level:
                level = unit.isa_level
                self._calibrate(f"before {level}")
            self.run_unit(unit, units[index + 1 :], cold)
        for cell in cold:
            if not self._finished(row_key(cell.cell_id, 1)):
                self.progress.started(cell)
                self._store(self._cold_row(cell))
        self._calibrate("end")

    def run_unit(
        self, unit: Unit, later: Sequence[Unit] = (), cold: Sequence[Cell] = ()
    ) -> dict[tuple[str, str, str, str], GroupStatus]:
        """Rounds of one unit until all its groups have stopped, or until the run budget cannot afford another round
        with the `later` units and `cold` cells still to come (the budget's floor rounds always run); returns the
        groups' final status."""
        groups = {group_key(c) for c in unit.cells}
        started = self.budget.clock() if self.budget else 0.0
        slots_run = 0
        round_index = 0
        while True:
            statuses = {g: group_status(self._group_rows(g), round_index, self.stopping) for g in groups}
            active = [c for c in unit.cells if not statuses[group_key(c)].finished and c.cell_id not in self.broken]
            if not active:
                break
            design, slots = self._layout(active, round_index + 1)
            slots = [
                slot
                for slot in slots
                if not all(
                    self._finished(row_key(c.cell_id, round_index + 1, p.partner)) for p in slot for c in p.cells
                )
            ]
            if (
                self.budget and slots and round_index >= self.budget.spec.floor_rounds
            ):  # a round done before a resume costs nothing
                slot_s = (self.budget.clock() - started) / slots_run if slots_run else self._process_s()
                affordable = self._affordable(unit, round_index, len(slots) * slot_s, later, cold)
                if not round_fits(round_index, affordable):
                    self.progress.note(
                        f"run budget: {self.budget.remaining_s() / 60:.1f} min left for {len(later) + 1} unit(s) "
                        f"and the cold cells: about {affordable:.1f} rounds per group affordable"
                    )
                    statuses = {
                        g: s if s.finished else dataclasses.replace(s, state=BUDGET) for g, s in statuses.items()
                    }
                    break
            round_index += 1
            for slot in slots:
                self.run_slot(slot, round_index, design)
                slots_run += 1
        for g, status in sorted(statuses.items()):
            runtime = "" if g[3] == DEFAULT_RUNTIME else f" on {g[3]}"
            self.progress.note(f"group {g[1]}/{g[2]}@{g[0]}{runtime}: {describe_status(status)}")
            record = GroupRecord(
                isa_level=g[0], experiment=g[1], group=g[2], runtime=g[3], **dataclasses.asdict(status)
            )
            self.store.append_json_line(GROUPS_FILE, record.to_dict())
        return statuses

    def run_slot(self, slot: Slot, round_index: int, design: Design | None = None) -> list[ResultRow]:
        """Starts the slot's processes together and stores a row for every cell each measured."""
        design = design or self.design
        processes = [self._process(p, round_index, design) for p in slot]
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
        for row in rows:
            if row.status == RowStatus.FAILED:
                self.broken.add(row.cell_id)  # not retried in this session; a resumed run tries again
            self._store(row)
        return rows

    # -- pieces -----------------------------------------------------------------------------------------

    def _layout(self, cells: list[Cell], round_index: int) -> tuple[Design, list[Slot]]:
        """The design that lays out this round of a unit's cells (a lab without the `paired` verb is interleaved), and
        its slots."""
        return layout(
            self.design, cells, round_index, self.lab_cpus, self.labs[cells[0].target].paired_format is not None
        )

    def _process(self, placement: Placement, round_index: int, design: Design) -> tuple[list[RowContext], CellRequest]:
        """The row contexts of one process of a slot and its request: one cell, or (paired) every cell of its group,
        each
        with a folder of its own inside the process's folder."""
        if not placement.companions:
            ctx = self._context(placement, round_index, design.name)
            return [ctx], self._request(ctx)
        cells = placement.cells
        suffix = f"round-{round_index}"
        log = self.store.relative(self.store.path(LOGS_DIR, f"{unit_slug(cells[0])}.{suffix}.log"))
        contexts = [
            dataclasses.replace(
                self._context(Placement(c, placement.cpuset), round_index, design.name),
                log_path=log,
                raw_folder=f"{suffix}/{c.slug}",
                process_cells=len(cells),
            )
            for c in cells
        ]
        out_dir = self.store.path(RAW_DIR, unit_slug(cells[0]), suffix)
        out_dir.mkdir(parents=True, exist_ok=True)
        request = dataclasses.replace(
            self._request(contexts[0], out_dir),
            members=tuple((c, out_dir / c.slug) for c in cells),
            seed=burst_seed(cells, round_index),
        )
        return contexts, request

    def _affordable(
        self, unit: Unit, rounds_done: int, round_s: float, later: Sequence[Unit], cold: Sequence[Cell]
    ) -> float:
        """Rounds every group from this unit on can have within the run budget (harness/session/budget.py), after
        reserving the
        cold-start cells and calibrations still to come."""
        per_process = self._process_s()
        if self.design.shares_process:
            later_round_s = sum(
                round_seconds(
                    self.design, list(u.cells), self.job, self.labs[u.cells[0].target].paired_format is not None
                )
                for u in later
            )
        else:
            later_round_s = sum(len(self.design.round(list(u.cells), 1, self.lab_cpus)) for u in later) * per_process
        levels = (
            len({u.isa_level for u in later} - {unit.isa_level}) + 1
        )  # calibrations before each new level, and at the end
        pending_cold = sum(1 for c in cold if not self._finished(row_key(c.cell_id, 1)))
        reserve = pending_cold * cold_cell_seconds(self.cold) + (levels if self.calibrate else 0) * CALIBRATION_S
        return affordable_rounds(self.budget.remaining_s() - reserve, rounds_done, round_s, later_round_s)

    def _process_s(self) -> float:
        return typical_process_s(self.rows.values(), self.job)

    def _finished(self, key: str) -> bool:
        row = self.rows.get(key)
        return row is not None and row.status in FINISHED

    def _group_rows(self, group: tuple[str, str, str, str]) -> list[ResultRow]:
        return [r for r in self.rows.values() if row_group(r) == group]

    def _store(self, row: ResultRow) -> None:
        row = self.store.localized(row)
        self.store.append(row)
        self.rows[row.row_key] = row
        self.progress.finished(row)

    def _calibrate(self, label: str) -> None:
        if not self.calibrate:
            return
        started = time.monotonic()
        try:
            self._calibrate_all(label, started)
        finally:
            self.store.record_phase("calibration", started, f"calibration workloads {label}")

    def _calibrate_all(self, label: str, started: float) -> None:
        for cpu in self.lab_cpus:
            for workload in WORKLOADS:
                result = calibrate(label, cpu, workload)
                if result is not None:
                    self.store.append_json_line(CALIBRATION_FILE, result.to_dict())
                    self.progress.note(
                        f"calibration {label}, {workload} on CPU {cpu}: {result.median_ms:.2f} ms "
                        f"(CV {100 * result.cv:.1f}%) [{time.monotonic() - started:.1f} s]"
                    )


def unit_slug(cell: Cell) -> str:
    """File-system-safe name of a cell's group (experiment, group, ISA level, runtime): a paired process's folder and
    log."""
    suffix = "" if cell.runtime == DEFAULT_RUNTIME else f"__{cell.runtime}"
    return re.sub(r"[^A-Za-z0-9._-]+", "_", f"{cell.experiment}__{cell.group}__{cell.isa_level}{suffix}")


def describe_status(status: GroupStatus) -> str:
    """'precise after 12 rounds (worst ratio ±1.8%, 95 s)' and the like."""
    width = "—" if status.worst_rel_ci is None else f"±{100 * status.worst_rel_ci:.1f}%"
    return f"{status.state} after {status.rounds} round(s) (widest ratio CI {width}, {status.elapsed_s:.0f} s)"
