"""Budget priority 'open-claims': a run's rounds go where a published claim is still undecided.

Under the default 'in-turn' priority (harness/session/budget.py) units run one after another, each given the rounds
every later unit could have as well, and a group the budget stops early never gets another round. Here instead:

1. every unit gets the budget's floor rounds, in plan order (calibrating before each ISA level, as in-turn does);
2. then rounds are given one at a time: among the units with a group that still wants rounds (not precise, not at its
   cap) and whose next round fits the time left, those holding an undecided published claim
   (harness/session/open_claims.py) come first, and among them the one with the fewest rounds (plan order on ties);
   with no claim open, the same rule serves precision alone;
3. when no such round fits, every group still wanting rounds ends in the 'budget' state.

A round is costed at what that unit's rounds took so far in this session (its processes' wall time), else the job's
estimate. The time kept back is the cold-start cells and the final calibration. Why: replayed on the 912 processes of a
longer default run (`analysis replay-stopping`, docs/findings.md), this rule reached the verdicts of all 912 processes
within the hour's machine time, where the in-turn rule left 6 of them different; a resumed run replays the same
decisions from its rows, skipping processes already measured.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Protocol

from harness.model.cells import Cell
from harness.model.groups import BUDGET, RUNNING
from harness.model.records import ResultRow
from harness.planning.designs import Unit, group_key
from harness.session.budget import RunBudget
from harness.session.open_claims import ClaimReading, GroupKey, open_claims
from harness.session.progress import RunProgress
from harness.session.stopping import GroupStatus


class Session(Protocol):
    """What the open-claims priority drives: the scheduler's session (harness/session/scheduler.py)."""

    budget: RunBudget | None
    claims: dict[GroupKey, list[ClaimReading]]
    progress: RunProgress

    def active_cells(self, unit: Unit, statuses: dict[GroupKey, GroupStatus]) -> list[Cell]:
        ...

    def unit_statuses(self, unit: Unit, rounds_done: int) -> dict[GroupKey, GroupStatus]:
        ...

    def play_round(self, unit: Unit, round_index: int) -> int:
        ...

    def estimated_round_s(self, unit: Unit) -> float:
        ...

    def calibrate_now(self, label: str) -> None:
        ...

    def reserve_s(self, cold: Sequence[Cell], calibrations: int) -> float:
        ...

    def record_statuses(self, statuses: dict[GroupKey, GroupStatus]) -> None:
        ...

    def group_rows(self, group: GroupKey) -> list[ResultRow]:
        ...


OPEN_CLAIMS = "open-claims"


def run_by_priority(session: Session, units: Sequence[Unit], cold: Sequence[Cell]) -> None:
    """Runs the units' rounds under the open-claims priority, then records every group's final status."""
    budget = session.budget
    assert budget is not None
    clock = budget.clock
    rounds = [0] * len(units)
    spent = [0.0] * len(units)  # wall seconds of this session's rounds that ran processes, per unit
    timed = [0] * len(units)

    def wants_rounds(index: int) -> bool:
        return bool(session.active_cells(units[index], session.unit_statuses(units[index], rounds[index])))

    def play(index: int) -> None:
        started = clock()
        if session.play_round(units[index], rounds[index] + 1):
            spent[index] += clock() - started
            timed[index] += 1
        rounds[index] += 1

    def round_s(index: int) -> float:
        return spent[index] / timed[index] if timed[index] else session.estimated_round_s(units[index])

    level = None
    for index, unit in enumerate(units):
        if unit.isa_level != level:
            level = unit.isa_level
            session.calibrate_now(f"before {level}")
        while rounds[index] < budget.spec.floor_rounds and wants_rounds(index):
            play(index)
    while True:
        room = budget.remaining_s() - session.reserve_s(cold, 1)
        candidates = [i for i in range(len(units)) if wants_rounds(i) and round_s(i) <= room]
        if not candidates:
            break
        undecided = [i for i in candidates if undecided_claims(session, units[i])]
        play(min(undecided or candidates, key=lambda i: (rounds[i], i)))
    stopped = sum(1 for i in range(len(units)) if wants_rounds(i))
    if stopped:
        session.progress.note(
            f"run budget: {budget.remaining_s() / 60:.1f} min left, too little for another round of the "
            f"{stopped} unit(s) that could still use one"
        )
    for index, unit in enumerate(units):
        statuses = session.unit_statuses(unit, rounds[index])
        session.record_statuses(
            {g: dataclasses.replace(s, state=BUDGET) if s.state == RUNNING else s for g, s in statuses.items()}
        )


def undecided_claims(session: Session, unit: Unit) -> int:
    """Published claims read on the unit's groups that its rows do not decide yet."""
    groups = {group_key(c) for c in unit.cells}
    return sum(open_claims(session.claims[g], session.group_rows(g)) for g in groups if g in session.claims)
