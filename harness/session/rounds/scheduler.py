"""The replicate loop: units of cells, round after round, until each group's stopping rule is met (or the run budget,
harness/session/rounds/budget.py, cannot afford another round).

Each round of a unit is laid out by the run's design (sequential, interleaved, duet); every
process's row is stored the moment it ends. Before each ISA level and at the end, the calibration
workload is timed on the lab CPUs, so the report can show how much the machine drifted.
A resumed run replays the same layout and skips the processes that already have a row.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from harness.backends.base import CellRequest
from harness.model.cells import Cell
from harness.model.folder.records import COLD, DEFAULT_RUNTIME, MEASURED, REPLICATED, ResultRow, RowStatus, row_key
from harness.model.folder.run_folder import GROUPS_FILE
from harness.model.folder.run_records import GroupRecord
from harness.model.groups import BUDGET, GroupKey, row_group
from harness.model.stats.interference import REPLACEMENTS_PER_CELL, disturbance, disturbed_text
from harness.planning.designs import Design, Slot, Unit, group_key, layout
from harness.planning.estimate import ShotCosts
from harness.planning.history import CostHistory
from harness.session.processes.cell_rows import RowMaker
from harness.session.processes.session_setup import SessionSetup
from harness.session.processes.slot_processes import Ahead, Following, SlotRunner
from harness.session.rounds.budget import RunBudget, round_fits
from harness.session.rounds.calibration import calibrate_lab_cpus
from harness.session.rounds.open_claims import ClaimReading
from harness.session.rounds.priority import RULES as PRIORITY_RULES
from harness.session.rounds.priority import run_by_priority
from harness.session.rounds.progress import RunProgress
from harness.session.rounds.round_costs import RoundCosts
from harness.session.rounds.stopping import GroupStatus, group_status
from harness.session.rounds.warm_switch import WarmSwitch

#: Row statuses a resumed run does not run again.
FINISHED = (RowStatus.OK, RowStatus.UNVERIFIED, RowStatus.SKIPPED)


@dataclass
class Session:
    """The replicate loop of one run (or one resumed session of it), composed of parts that read its setup: the rows it
    makes (cell_rows.py RowMaker), the processes of a slot (slot_processes.py SlotRunner) and what rounds cost
    (round_costs.py RoundCosts); it keeps the rows stored so far, decides the rounds and stores each row."""

    setup: SessionSetup
    progress: RunProgress
    calibrate: bool = True
    budget: RunBudget | None = None
    # the claims each group decides
    claims: dict[GroupKey, list[ClaimReading]] = dataclasses.field(default_factory=dict)
    history: CostHistory | None = None  # what the cells cost in earlier runs (harness/planning/history.py)
    shot_costs: ShotCosts = ShotCosts()  # what single-shot processes cost up front (harness/planning/estimate.py)

    def __post_init__(self) -> None:
        self.maker = RowMaker(self.setup)
        self.slots = SlotRunner(self.setup, self.maker, self.progress)
        self.costs = RoundCosts(self.setup, self.calibrate, self.history, self.shot_costs)
        self.rows: dict[str, ResultRow] = dict(self.setup.store.rows())
        self._by_group: dict[GroupKey, dict[str, ResultRow]] = {}
        for row in self.rows.values():
            self._by_group.setdefault(row_group(row), {})[row.row_key] = row
        self.broken: set[str] = set()
        self.replaced: dict[str, int] = {}  # cell_id → disturbed processes replaced in this session
        self.ahead: Ahead | None = None  # the schedule's guess at the process after the next
        self.warm_switch = WarmSwitch(self.history.process.warm_s if self.history and self.history.process else None)

    # -- the loop ---------------------------------------------------------------------------------------

    def run(self, cells: list[Cell]) -> None:
        """Records cells that cannot run, then runs every unit of the rest, level by level."""
        runnable = [c for c in cells if self.maker.runnable(c, cells)]
        for cell in cells:
            if cell not in runnable and not self._finished(row_key(cell.cell_id, 1)):
                self._store(self.maker.unrunnable_row(cell))
        units = self.setup.design.units(
            [c for c in runnable if c.measure in REPLICATED],
            lambda c: self.setup.labs[c.target].shares_with_other_groups(c),
        )
        cold = [c for c in runnable if c.measure == COLD]
        if self.budget and self.budget.spec.priority in PRIORITY_RULES:
            run_by_priority(self, units, cold, self.budget.spec.priority)
        else:
            level = None
            for index, unit in enumerate(units):
                if unit.isa_level != level:
                    level = unit.isa_level
                    self.calibrate_now(f"before {level}")
                self.run_unit(unit, units[index + 1 :], cold)
        for cell in cold:
            if not self._finished(row_key(cell.cell_id, 1)):
                self.progress.started(cell)
                self._store(self.maker.cold_row(cell))
        self.calibrate_now("end")

    def run_unit(
        self, unit: Unit, later: Sequence[Unit] = (), cold: Sequence[Cell] = ()
    ) -> dict[GroupKey, GroupStatus]:
        """Rounds of one unit until all its groups have stopped, or until the run budget cannot afford another round
        with the `later` units and `cold` cells still to come (the budget's floor rounds always run); returns the
        groups' final status."""
        started = self.budget.clock() if self.budget else 0.0
        slots_run = 0
        round_index = 0
        while True:
            statuses = self.unit_statuses(unit, round_index)
            active = self.active_cells(unit, statuses)
            if not active:
                break
            design, slots = self._round_slots(active, round_index + 1)
            if (
                self.budget and slots and round_index >= self.budget.spec.floor_rounds
            ):  # a round done before a resume costs nothing
                slot_s = (
                    (self.budget.clock() - started) / slots_run
                    if slots_run
                    else self.costs.process_s(self.rows.values())
                )
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
                self.ahead = lambda: (unit, round_index + 1)  # the same unit's next round, if it still wants one
                self.run_slot(slot, round_index, design)
                slots_run += 1
        self.record_statuses(statuses)
        return statuses

    def unit_statuses(self, unit: Unit, rounds_done: int) -> dict[GroupKey, GroupStatus]:
        """Where each group of a unit stands after `rounds_done` rounds."""
        groups = {group_key(c) for c in unit.cells}
        return {g: group_status(self.group_rows(g), rounds_done, self.setup.stopping) for g in groups}

    def play_round(self, unit: Unit, round_index: int) -> int:
        """Runs round `round_index` of a unit's cells whose groups still want rounds (its processes that already have
        a row are skipped: a resumed run); returns how many processes it started (0: none wanted, or all done)."""
        active = self.active_cells(unit, self.unit_statuses(unit, round_index - 1))
        if not active:
            return 0
        design, slots = self._round_slots(active, round_index)
        for slot in slots:
            self.run_slot(slot, round_index, design)
        return sum(len(slot) for slot in slots)

    def record_statuses(self, statuses: dict[GroupKey, GroupStatus]) -> None:
        """Says and stores where each group ended."""
        for g, status in sorted(statuses.items()):
            runtime = "" if g.place == DEFAULT_RUNTIME else f" on {g.place}"
            self.progress.note(f"group {g.experiment}/{g.group}@{g.isa_level}{runtime}: {status.describe()}")
            record = GroupRecord(
                isa_level=g.isa_level,
                experiment=g.experiment,
                group=g.group,
                runtime=g.place,
                **dataclasses.asdict(status),
            )
            self.setup.store.append_json_line(GROUPS_FILE, record.to_dict())

    def run_slot(self, slot: Slot, round_index: int, design: Design | None = None) -> list[ResultRow]:
        """Starts the slot's processes together and stores a row for every cell each measured. A slot with a disturbed
        process (other work took more than INTERFERENCE_THRESHOLD of its CPU) runs again, as long as its cells have
        replacements left (REPLACEMENTS_PER_CELL): the disturbed rows are kept, set aside ('disturbed', `replaced`),
        and the fresh processes' rows stand for the round. Past the cap a disturbed row stays 'disturbed', outside the
        statistics, with its reason."""
        design = design or self.setup.design
        for attempt in itertools.count(1):
            rows = self.slots.measure(slot, round_index, design, attempt, self._take_following)
            disturbed = [r for r in rows if r.status in MEASURED and disturbance(r) is not None]
            cells = {r.cell_id for r in rows}
            if not disturbed or any(self.replaced.get(c, 0) >= REPLACEMENTS_PER_CELL for c in cells):
                break
            for row in rows:
                self.replaced[row.cell_id] = self.replaced.get(row.cell_id, 0) + 1
                share = disturbance(row)
                why = disturbed_text(share) if share is not None else "its slot was disturbed"
                self._store(
                    dataclasses.replace(
                        row, status=RowStatus.DISTURBED, replaced=attempt, error=f"{why}; replaced by a fresh process"
                    )
                )
        rows = [self._final(row) for row in rows]
        for row in rows:
            if row.status == RowStatus.FAILED:
                self.broken.add(row.cell_id)  # not retried in this session; a resumed run tries again
            self._store(row)
        return rows

    def _final(self, row: ResultRow) -> ResultRow:
        """A row that is still disturbed once its cell's replacements are spent is 'disturbed', not measured."""
        share = disturbance(row) if row.status in MEASURED else None
        if share is None:
            return row
        spent = self.replaced.get(row.cell_id, 0)
        return dataclasses.replace(
            row,
            status=RowStatus.DISTURBED,
            error=f"{disturbed_text(share)}, after {spent} replacement(s) of this cell in this session",
        )

    # -- pieces -----------------------------------------------------------------------------------------

    def active_cells(self, unit: Unit, statuses: dict[GroupKey, GroupStatus]) -> list[Cell]:
        """The unit's cells whose group still wants rounds and that have not failed in this session."""
        return [c for c in unit.cells if not statuses[group_key(c)].finished and c.cell_id not in self.broken]

    def _round_slots(self, cells: list[Cell], round_index: int) -> tuple[Design, list[Slot]]:
        """The slots of one round of these cells that have not run yet (a resumed run has some)."""
        design, slots = self._layout(cells, round_index)
        return design, [
            slot
            for slot in slots
            if not all(self._finished(row_key(c.cell_id, round_index, p.partner)) for p in slot for c in p.cells)
        ]

    def _layout(self, cells: list[Cell], round_index: int) -> tuple[Design, list[Slot]]:
        """The design that lays out this round of a unit's cells (a lab without the `paired` verb is interleaved), and
        its slots."""
        lab = self.setup.labs[cells[0].target]
        return layout(
            self.setup.design, cells, round_index, self.setup.lab_cpus, lab.shares_process(cells[0]), lab.paired_handoff
        )

    def estimated_round_s(self, unit: Unit) -> float:
        """Wall seconds of one round of a unit before any of it ran (round_costs.py)."""
        return self.costs.estimated_round_s(unit, self.rows.values())

    def reserve_s(self, cold: Sequence[Cell], calibrations: int) -> float:
        """Seconds to keep for the cold-start cells not run yet and `calibrations` calibrations (round_costs.py)."""
        return self.costs.reserve_s(cold, calibrations, lambda c: self._finished(row_key(c.cell_id, 1)))

    def _affordable(
        self, unit: Unit, rounds_done: int, round_s: float, later: Sequence[Unit], cold: Sequence[Cell]
    ) -> float:
        """Rounds every group from this unit on can have within the run budget, after the cold cells and calibrations
        (before each new level, and at the end) still to come."""
        assert self.budget is not None
        levels = len({u.isa_level for u in later} - {unit.isa_level}) + 1
        reserve = self.reserve_s(cold, levels)
        return self.costs.affordable(self.budget, unit, rounds_done, round_s, later, reserve, self.rows.values())

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
        return self.slots.process(slots[0][0], round_index, design)[1]

    def _take_following(self) -> Following:
        """The next process's request, asked once a handed-over process is on the lab's CPU (the guess is used once)."""
        guess, self.ahead = self.ahead, None
        return lambda: self._guessed(guess)

    def _finished(self, key: str) -> bool:
        row = self.rows.get(key)
        return row is not None and row.status in FINISHED

    def group_rows(self, group: GroupKey) -> list[ResultRow]:
        """The rows of one group so far."""
        return list(self._by_group.get(group, {}).values())

    def _store(self, row: ResultRow) -> None:
        row = self.setup.store.localized(row)
        self.setup.store.append(row)
        self.rows[row.row_key] = row
        self._by_group.setdefault(row_group(row), {})[row.row_key] = row
        self.warm_switch.add(row)
        self.progress.finished(row)

    def calibrate_now(self, label: str) -> None:
        """Times the calibration workloads on the lab CPUs (unless the run was asked not to)."""
        if self.calibrate:
            calibrate_lab_cpus(self.setup.backend, self.setup.store, self.setup.lab_cpus, label, self.progress.note)
