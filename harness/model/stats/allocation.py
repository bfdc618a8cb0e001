"""How a run's time is shared among its units, a round at a time: the rule behind the run budget's 'open-claims'
priority.

A unit is what gets a round: a group at one ISA level under the paired, interleaved and duet designs, a whole level
under the sequential one, every group of a level and runtime build under paired-shared. Sharing goes:

1. the floor: in plan order, each unit gets rounds until it has `floor` of them or its stopping rule
   (harness/model/stats/group_precision.py) wants no more, whatever the time left;
2. then one round at a time: among the units that still want rounds and whose next round fits in the time left (those
   whose published claims are all decided left out, under a rule that stops them), the ones holding an undecided
   claim come first (under a rule that puts them first), and among those the one with the fewest rounds, plan order on
   ties; under the 'expected-decisions' rule, first the unit whose rounds are forecast to decide the most claims per
   second of machine time (harness/model/stats/decision_forecast.py), among those whose forecast fits the time left,
   a unit other than the one whose process was warmed ahead paying that warm-up once (`switch_s`: the paired-pipelined
   design's lab CPU waits for it), so a near tie goes to the process that is ready;
   `--until-decided` plays that rule only: a unit none of whose open claims is forecast decided in the time left gets
   no round;
3. when no round fits, or no unit wants one, sharing ends.

The run plays it against the clock (harness/session/rounds/priority.py); the stopping replay plays it on a longer run's
recorded rounds to compare rules (analysis/tools/stopping_replay.py). Both call share_rounds: a change here changes
both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Protocol

from harness.model.stats.decision_forecast import decisions_per_second


@dataclass(frozen=True)
class SharingRule:
    """How the rounds beyond the floor are shared."""

    claims_first: bool = True  # units holding an undecided published claim get rounds before the others
    stop_when_decided: bool = False  # a unit whose published claims are all decided gets no round beyond the floor
    expected_decisions: bool = False  # the most claims forecast decided per second first (those that fit the time)
    decidable_only: bool = False  # rounds beyond the floor only to units with a claim forecast decided in the time left


#: The run budget's 'open-claims' priority: undecided claims first; with none open, precision alone (fewest rounds
#: first).
OPEN_CLAIMS_FIRST = SharingRule(claims_first=True)

#: The run budget's 'expected-decisions' priority: the unit forecast to decide the most claims per second first, then
#: as 'open-claims' once no open claim is forecast to be decided in the time left.
EXPECTED_DECISIONS = SharingRule(claims_first=True, expected_decisions=True)

#: `--until-decided`: as 'expected-decisions', but only while some open claim is forecast to be decided in the time
#: left; then sharing ends (no round is spent on precision alone, nor on a claim no round can decide).
UNTIL_DECIDED = SharingRule(claims_first=True, stop_when_decided=True, expected_decisions=True, decidable_only=True)


@dataclass(frozen=True)
class Claims:
    """The published claims read on a unit: how many, and how many its rounds so far leave undecided."""

    open: int
    read: int
    to_decide: tuple[float, ...] = ()  # per open claim, the further rounds forecast to decide it (math.inf: never)

    @property
    def decided(self) -> bool:
        """True when the unit holds claims and none of them is open."""
        return self.read > 0 and self.open == 0


class Units(Protocol):
    """The units sharing the time, by index in plan order, as the caller keeps them (on the clock or recorded)."""

    def wants_rounds(self, index: int, rounds_done: int) -> bool:
        """True while the unit's stopping rule wants another round after `rounds_done`."""
        ...

    def claims(self, index: int, rounds_done: int) -> Claims:
        """The claims read on the unit after `rounds_done` rounds."""
        ...

    def room_s(self) -> float:
        """Seconds left for rounds beyond the floor."""
        ...

    def round_s(self, index: int) -> float:
        """What the unit's next round is expected to take."""
        ...

    def play(self, index: int, round_index: int) -> None:
        """Runs (or counts) the unit's round `round_index`."""
        ...


def next_round(
    units: Units, rounds: Sequence[int], rule: SharingRule, warm: int | None = None, switch_s: float = 0.0
) -> int | None:
    """The unit that gets the next round beyond the floor, None when no round fits or none is wanted. `warm`: the unit
    whose process was warmed ahead; under expected decisions each other unit's rate counts `switch_s` more."""
    room = units.room_s()
    candidates = [i for i in range(len(rounds)) if units.wants_rounds(i, rounds[i]) and units.round_s(i) <= room]
    if rule.stop_when_decided:
        candidates = [i for i in candidates if not units.claims(i, rounds[i]).decided]
    if rule.expected_decisions:
        rates = {
            i: _decision_rate(units, i, rounds[i], room, 0.0 if warm in (None, i) else switch_s) for i in candidates
        }
        if any(rates.values()):
            return min(candidates, key=lambda i: (-rates[i], rounds[i], i))
        if rule.decidable_only:
            return None
    if rule.claims_first:
        candidates = [i for i in candidates if units.claims(i, rounds[i]).open > 0] or candidates
    if not candidates:
        return None
    return min(candidates, key=lambda i: (rounds[i], i))


def _decision_rate(units: Units, index: int, rounds_done: int, room: float, switch_s: float = 0.0) -> float:
    """Claims forecast decided per second of the unit's rounds (and of `switch_s` once), counting only those whose
    rounds fit in `room`."""
    round_s = units.round_s(index)
    fits = [r for r in units.claims(index, rounds_done).to_decide if max(r, 1.0) * round_s <= room]
    return decisions_per_second(fits, round_s, switch_s)


#: A guess at the round after the one about to be played: (unit index, round), or None for none.
Guess = Callable[[], "tuple[int, int] | None"]


def share_rounds(
    units: Units,
    count: int,
    floor: int,
    rule: SharingRule,
    before_floor: Callable[[int], None] | None = None,
    foresee: Callable[[Guess], None] | None = None,
    switch_s: Callable[[], float] | None = None,
) -> list[int]:
    """Plays the floor, then the rounds `rule` gives, of `count` units; returns the rounds each got. `before_floor`
    is called with each unit's index before its floor rounds (the run calibrates before each ISA level). `foresee`, when
    given, gets before each round a guess at the round after it, to call once that round has started (the paired-
    pipelined design warms its process meanwhile): the rule as it would choose with the round counted but its result
    not yet known, so the guess can be wrong; what is played is always the rule's own choice, made after the round.
    `switch_s`, when given, is what a round costs more when its unit is not the guess (next_round's `switch_s`)."""
    rounds = [0] * count
    guessed: list[int | None] = [None]  # the unit the last guess named: its process is the one warming
    for index in range(count):
        if before_floor is not None:
            before_floor(index)
        while rounds[index] < floor and units.wants_rounds(index, rounds[index]):
            _play(
                units,
                rounds,
                index,
                foresee,
                partial(_floor_guess, units, index=index, floor=floor, rule=rule),
                guessed,
            )
    while True:
        chosen = next_round(units, rounds, rule, guessed[0], switch_s() if switch_s is not None else 0.0)
        if chosen is None:
            return rounds
        _play(units, rounds, chosen, foresee, lambda after: next_round(units, after, rule), guessed)


def _play(
    units: Units,
    rounds: list[int],
    index: int,
    foresee: Callable[[Guess], None] | None,
    guess: Callable[[list[int]], int | None],
    guessed: list[int | None],
) -> None:
    """Plays the unit's next round, after telling `foresee` how to guess the round after it (the unit guessed, once
    asked, kept in `guessed`)."""
    guessed[0] = None
    if foresee is not None:
        after = [*rounds]
        after[index] += 1

        def ahead() -> tuple[int, int] | None:
            found = guessed[0] = guess(after)
            return None if found is None else (found, after[found] + 1)

        foresee(ahead)
    units.play(index, rounds[index] + 1)
    rounds[index] += 1


def _floor_guess(units: Units, after: Sequence[int], index: int, floor: int, rule: SharingRule) -> int | None:
    """During the floor: the same unit again until its floor is reached (if it still wants rounds as far as it can tell
    before the round's result), then the next unit that wants its floor, then the rule's first choice beyond it."""
    if after[index] < floor and units.wants_rounds(index, after[index]):
        return index
    for later in range(index + 1, len(after)):
        if after[later] < floor and units.wants_rounds(later, after[later]):
            return later
    return next_round(units, after, rule)
