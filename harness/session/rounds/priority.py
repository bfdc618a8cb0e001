"""Budget priority 'open-claims': a run's rounds go where a published claim is still undecided.

Under the default 'in-turn' priority (harness/session/rounds/budget.py) units run one after another, each given the
rounds every later unit could have as well, and a group the budget stops early never gets another round. Here instead:

0. with a noise probe in the budget (probe_groups), a few units spread over the plan get their first rounds before the
   rest, and the forecast of what the budget decides on this host is said and kept
(harness/session/rounds/noise_probe.py); 1. every unit gets the budget's floor rounds, in plan order (calibrating before
each ISA level, as in-turn does); 2. then rounds are given one at a time: among the units with a group that still wants
   rounds (not precise, not at its cap) and whose next round fits the time left, those holding an undecided published
   claim (harness/session/rounds/open_claims.py) come first, and among them the one with the fewest rounds (plan order
   on ties); with no claim open, the same rule serves precision alone;
3. when no such round fits, every group still wanting rounds ends in the 'budget' state.

Steps 1 and 2 are harness/model/stats/allocation.py's (share_rounds, OPEN_CLAIMS_FIRST), which the stopping replay
(analysis/tools/stopping_replay.py) plays too; this module plays them on the session's clock. A round is costed at
what that unit's rounds took so far in this session (its processes' wall time), else the job's estimate. The time kept
back is the cold-start cells and the final calibration. Why: replayed on the 912 processes of a longer default run
(`analysis replay-stopping`, docs/findings.md), this rule reached the verdicts of all 912 processes within the hour's
machine time, where the in-turn rule left 6 of them different; a resumed run replays the same decisions from its rows,
skipping processes already measured.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Protocol

from harness.model.cells import Cell
from harness.model.groups import BUDGET, RUNNING, GroupKey
from harness.model.stats.allocation import (
    EXPECTED_DECISIONS,
    OPEN_CLAIMS_FIRST,
    UNTIL_DECIDED,
    Claims,
    Guess,
    SharingRule,
    share_rounds,
)
from harness.planning.designs import Unit, group_key
from harness.session.processes.slot_processes import Ahead
from harness.session.rounds.budget import RunBudget
from harness.session.rounds.noise_probe import ProbeSession, run_probe
from harness.session.rounds.open_claims import rounds_to_decide
from harness.session.rounds.stopping import GroupStatus
from harness.session.rounds.until_decided import describe as describe_left
from harness.session.rounds.until_decided import final_state, open_units
from harness.session.rounds.warm_switch import WarmSwitch


class Session(ProbeSession, Protocol):
    """What the open-claims priority drives: the scheduler's session (harness/session/rounds/scheduler.py), beyond what
    the noise probe reads of it (claims, stopping rule, store, progress, group rows, round estimates)."""

    budget: RunBudget | None

    def active_cells(self, unit: Unit, statuses: dict[GroupKey, GroupStatus]) -> list[Cell]:
        ...

    def unit_statuses(self, unit: Unit, rounds_done: int) -> dict[GroupKey, GroupStatus]:
        ...

    def play_round(self, unit: Unit, round_index: int) -> int:
        ...

    def calibrate_now(self, label: str) -> None:
        ...

    ahead: Ahead | None
    warm_switch: WarmSwitch

    def reserve_s(self, cold: Sequence[Cell], calibrations: int) -> float:
        ...

    def record_statuses(self, statuses: dict[GroupKey, GroupStatus]) -> None:
        ...


OPEN_CLAIMS = "open-claims"
EXPECTED = "expected-decisions"
#: The budget priorities played here, by name (harness/config/experiment/profiles.py PRIORITIES), and their sharing
#: rules.
RULES: dict[str, SharingRule] = {OPEN_CLAIMS: OPEN_CLAIMS_FIRST, EXPECTED: EXPECTED_DECISIONS}


class _SessionUnits:
    """The session's units as harness/model/stats/allocation.py shares them: rounds played on the clock, each costed at
    what the unit's rounds took so far in this session, else the job's estimate."""

    def __init__(self, session: Session, units: Sequence[Unit], cold: Sequence[Cell]) -> None:
        assert session.budget is not None
        self.session, self.units, self.cold, self.budget = session, units, cold, session.budget
        self.spent = [0.0] * len(units)  # wall seconds of this session's rounds that ran processes, per unit
        self.timed = [0] * len(units)
        self.level: str | None = None

    def wants_rounds(self, index: int, rounds_done: int) -> bool:
        unit = self.units[index]
        return bool(self.session.active_cells(unit, self.session.unit_statuses(unit, rounds_done)))

    def claims(self, index: int, rounds_done: int) -> Claims:
        groups = {group_key(c) for c in self.units[index].cells} & set(self.session.claims)
        needs = tuple(n for g in groups for n in rounds_to_decide(self.session.claims[g], self.session.group_rows(g)))
        return Claims(open=len(needs), read=sum(len(self.session.claims[g]) for g in groups), to_decide=needs)

    def room_s(self) -> float:
        return self.budget.remaining_s() - self.session.reserve_s(self.cold, 1)

    def clock(self) -> float:
        return self.budget.clock()

    def rounds_in_rows(self, index: int) -> int:
        """The highest round the unit's rows hold: a resumed session's sharing may stop short of the rounds an
        earlier session of the run already measured, which its groups' records still count."""
        groups = {group_key(c) for c in self.units[index].cells}
        return max((int(r.round_index) for g in groups for r in self.session.group_rows(g)), default=0)

    def round_s(self, index: int) -> float:
        if self.timed[index]:
            return self.spent[index] / self.timed[index]
        return self.session.estimated_round_s(self.units[index])

    def foresee(self, guess: Guess) -> None:
        """Tells the session how to guess the round after the next (a unit whose floor starts at a new ISA level is
        not guessed: a calibration comes before it)."""

        def ahead() -> tuple[Unit, int] | None:
            found = guess()
            if found is None or (found[1] == 1 and self.units[found[0]].isa_level != self.level):
                return None
            return self.units[found[0]], found[1]

        self.session.ahead = ahead

    def play(self, index: int, round_index: int) -> None:
        started = self.budget.clock()
        if self.session.play_round(self.units[index], round_index):
            self.spent[index] += self.budget.clock() - started
            self.timed[index] += 1

    def before_floor(self, index: int) -> None:
        """Calibrates before the first unit of each ISA level, as the in-turn priority does."""
        if self.units[index].isa_level != self.level:
            self.level = self.units[index].isa_level
            self.session.calibrate_now(f"before {self.level}")


def run_by_priority(session: Session, units: Sequence[Unit], cold: Sequence[Cell], priority: str = OPEN_CLAIMS) -> None:
    """Runs the units' rounds under the budget's priority (open-claims or expected-decisions: harness/model/
    allocation.py), then records every group's final status."""
    turns = _SessionUnits(session, units, cold)
    budget = turns.budget
    if budget.spec.probe_groups:
        run_probe(session, turns, budget.spec)
    rule = UNTIL_DECIDED if budget.spec.until_decided else RULES[priority]
    rounds = share_rounds(
        turns,
        len(units),
        budget.spec.floor_rounds,
        rule,
        turns.before_floor,
        turns.foresee,
        session.warm_switch.seconds,
    )
    left = {u.index: u for u in open_units(turns, rounds)} if budget.spec.until_decided else {}
    if budget.spec.until_decided:
        for line in describe_left(turns, rounds, list(left.values()), budget.spec.minutes):
            session.progress.note(line)
    else:
        stopped = sum(1 for i in range(len(units)) if turns.wants_rounds(i, rounds[i]))
        if stopped:
            session.progress.note(
                f"run budget: {budget.remaining_s() / 60:.1f} min left, too little for another round of the "
                f"{stopped} unit(s) that could still use one"
            )
    for index, unit in enumerate(units):
        statuses = session.unit_statuses(unit, max(rounds[index], turns.rounds_in_rows(index)))
        ended = final_state(left.get(index)) if budget.spec.until_decided else BUDGET
        session.record_statuses(
            {g: dataclasses.replace(s, state=ended) if s.state == RUNNING else s for g, s in statuses.items()}
        )
