"""What the session's rounds cost, for its budget (harness/session/rounds/budget.py): a unit's round before any of it
ran (what its cells took in an earlier run, else the job's model), the typical process of this run so far, the seconds
to keep for the cold cells and calibrations still to come, and how many rounds the budget affords. A part of the
session: it reads the run's setup and what it is handed."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from harness.model.cells import Cell
from harness.model.folder.records import SINGLE_SHOT, ResultRow
from harness.planning.designs import Unit
from harness.planning.estimate import ShotCosts, cold_cell_seconds, learned_round_seconds, round_seconds
from harness.planning.history import CostHistory
from harness.session.processes.session_setup import SessionSetup
from harness.session.rounds.budget import CALIBRATION_S, RunBudget, affordable_rounds, typical_process_s


@dataclass(frozen=True)
class RoundCosts:
    setup: SessionSetup
    calibrate: bool = True
    history: CostHistory | None = None  # what the cells cost in earlier runs (harness/planning/history.py)
    shot_costs: ShotCosts = ShotCosts()  # what single-shot processes cost up front (harness/planning/estimate.py)

    def process_s(self, rows: Iterable[ResultRow]) -> float:
        """The typical process of this run so far (the job's estimate before any)."""
        return typical_process_s(rows, self.setup.job)

    def estimated_round_s(self, unit: Unit, rows: Iterable[ResultRow] = ()) -> float:
        """Wall seconds of one round of a unit before any of it ran: what its cells took in an earlier run of the same
        design and job where one exists (the plan's history), else the job's estimate (planning/estimate.py)."""
        design, job = self.setup.design, self.setup.job
        if unit.cells[0].measure == SINGLE_SHOT:  # a unit is one group: all single shots or none
            modelled = sum(self.shot_costs.process_seconds(c) for c in unit.cells)
        elif design.shares_process:
            paired = self.setup.labs[unit.cells[0].target].shares_process(unit.cells[0])
            modelled = round_seconds(design, list(unit.cells), job, paired)
        else:
            modelled = len(design.round(list(unit.cells), 1, self.setup.lab_cpus)) * self.process_s(rows)
        learned = learned_round_seconds([c.cell_id for c in unit.cells], modelled, self.history)
        return modelled if learned is None else learned

    def reserve_s(self, cold: Sequence[Cell], calibrations: int, finished: Callable[[Cell], bool]) -> float:
        """Seconds the run must keep for the cold-start cells not run yet (`finished`: whether one has its row) and
        `calibrations` calibrations."""
        pending_cold = sum(1 for c in cold if not finished(c))
        return (
            pending_cold * cold_cell_seconds(self.setup.cold) + (calibrations if self.calibrate else 0) * CALIBRATION_S
        )

    def affordable(
        self,
        budget: RunBudget,
        unit: Unit,
        rounds_done: int,
        round_s: float,
        later: Sequence[Unit],
        reserve_s: float,
        rows: Iterable[ResultRow] = (),
    ) -> float:
        """Rounds every group from this unit on can have within the run budget, after reserving `reserve_s` for the
        cold-start cells and calibrations still to come."""
        later_round_s = sum(self.estimated_round_s(u, rows) for u in later)
        return affordable_rounds(budget.remaining_s() - reserve_s, rounds_done, round_s, later_round_s)
