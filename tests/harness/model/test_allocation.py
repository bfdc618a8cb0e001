"""Sharing a run's time among its units (harness/model/stats/allocation.py): the floor in plan order, then one round at
a time, undecided claims first, fewest rounds first, while a round fits."""

import math
from dataclasses import dataclass, field

from harness.model.stats.allocation import (
    EXPECTED_DECISIONS,
    OPEN_CLAIMS_FIRST,
    UNTIL_DECIDED,
    Claims,
    SharingRule,
    next_round,
    share_rounds,
)

PRECISION_ONLY = SharingRule(claims_first=False)
CLAIMS_DECIDE = SharingRule(claims_first=True, stop_when_decided=True)


@dataclass
class Scripted:
    """Units whose wishes are scripted: each wants rounds up to its `limit`, costs `cost` a round, and has `open` claims
    (of `read`) open until it has had `decided_after` rounds."""

    limit: list[int]
    cost: list[float]
    budget_s: float
    read: list[int] = field(default_factory=list)
    decided_after: list[int] = field(default_factory=list)
    played: list[tuple[int, int]] = field(default_factory=list)
    spent: float = 0.0

    def wants_rounds(self, index: int, rounds_done: int) -> bool:
        return rounds_done < self.limit[index]

    def claims(self, index: int, rounds_done: int) -> Claims:
        read = self.read[index] if self.read else 0
        still_open = read if self.decided_after and rounds_done < self.decided_after[index] else 0
        return Claims(open=still_open, read=read)

    def room_s(self) -> float:
        return self.budget_s - self.spent

    def round_s(self, index: int) -> float:
        return self.cost[index]

    def play(self, index: int, round_index: int) -> None:
        self.played.append((index, round_index))
        self.spent += self.cost[index]


def test_the_floor_comes_first_in_plan_order_whatever_the_time_left():
    units = Scripted(limit=[9, 9, 9], cost=[1.0, 1.0, 1.0], budget_s=0.0)
    seen: list[int] = []
    assert share_rounds(units, 3, 2, PRECISION_ONLY, seen.append) == [2, 2, 2]
    assert units.played == [(0, 1), (0, 2), (1, 1), (1, 2), (2, 1), (2, 2)]
    assert seen == [0, 1, 2]  # called before each unit's floor rounds


def test_a_unit_its_stopping_rule_has_stopped_gets_no_more_of_the_floor():
    units = Scripted(limit=[1, 9], cost=[1.0, 1.0], budget_s=0.0)
    assert share_rounds(units, 2, 3, PRECISION_ONLY) == [1, 3]


def test_beyond_the_floor_the_unit_with_the_fewest_rounds_goes_next_plan_order_on_ties():
    units = Scripted(limit=[9, 9, 9], cost=[1.0, 1.0, 1.0], budget_s=5.0)
    assert share_rounds(units, 3, 1, PRECISION_ONLY) == [2, 2, 1]  # 3 s of floor, then units 0 and 1 (ties: 0 first)
    assert units.played[3:] == [(0, 2), (1, 2)]


def test_sharing_ends_when_no_round_fits_but_a_cheaper_round_still_goes_while_it_fits():
    units = Scripted(limit=[9, 9], cost=[4.0, 1.0], budget_s=8.0)
    # floor: 5 s; 3 s left: the first unit's 4 s round never fits, the second takes three more
    assert share_rounds(units, 2, 1, PRECISION_ONLY) == [1, 4]
    assert units.spent == 8.0


def test_a_unit_with_an_open_claim_comes_first_even_with_more_rounds():
    units = Scripted(limit=[9, 9], cost=[1.0, 1.0], budget_s=6.0, read=[0, 1], decided_after=[0, 4])
    assert share_rounds(units, 2, 1, OPEN_CLAIMS_FIRST) == [2, 4]  # unit 1 to 4 rounds (decided), then unit 0
    assert share_rounds(Scripted([9, 9], [1.0, 1.0], 6.0), 2, 1, OPEN_CLAIMS_FIRST) == [3, 3]  # no claim: precision


def test_under_a_rule_that_stops_decided_units_they_keep_their_floor_and_get_nothing_more():
    units = Scripted(limit=[9, 9], cost=[1.0, 1.0], budget_s=10.0, read=[1, 1], decided_after=[1, 5])
    assert share_rounds(units, 2, 2, CLAIMS_DECIDE) == [2, 5]  # unit 0 decided from its first round
    claims_first = Scripted(limit=[9, 9], cost=[1.0, 1.0], budget_s=10.0, read=[1, 1], decided_after=[1, 5])
    assert share_rounds(claims_first, 2, 2, OPEN_CLAIMS_FIRST) == [5, 5]  # the decided unit has the rest


def test_no_unit_is_chosen_when_none_wants_a_round():
    assert next_round(Scripted(limit=[0, 0], cost=[1.0, 1.0], budget_s=100.0), [0, 0], OPEN_CLAIMS_FIRST) is None


@dataclass
class Forecast(Scripted):
    """Units whose open claims carry a forecast: `needs[i]` further rounds each, falling by one per round played."""

    needs: list[list[float]] = field(default_factory=list)

    def claims(self, index: int, rounds_done: int) -> Claims:
        left = tuple(n - rounds_done for n in self.needs[index] if n - rounds_done > 0)
        return Claims(open=len(left), read=len(self.needs[index]), to_decide=left)


def test_expected_decisions_gives_rounds_where_a_verdict_is_nearest_per_second_of_machine_time():
    # unit 0: one claim 100 rounds away; unit 1: one 3 rounds away at twice the cost; unit 2: two claims 4 rounds away
    units = Forecast(limit=[99, 99, 99], cost=[1.0, 2.0, 1.0], budget_s=17.0, needs=[[101], [4], [5, 5]])
    rounds = share_rounds(units, 3, 1, EXPECTED_DECISIONS)
    # after the floor (4 s): unit 2 (2 claims / 4 s) before unit 1 (1 claim / 6 s); unit 0's claim cannot be decided
    # in the time left, so it gets the rounds left once the others are decided
    assert units.played[3:7] == [(2, 2), (2, 3), (2, 4), (2, 5)]
    assert rounds == [4, 4, 5] and units.claims(1, 4).open == 0 and units.claims(2, 5).open == 0
    open_claims = share_rounds(
        Forecast([99] * 3, [1.0, 2.0, 1.0], 17.0, needs=[[101], [4], [5, 5]]), 3, 1, OPEN_CLAIMS_FIRST
    )
    assert open_claims != rounds  # fewest rounds first spends on unit 0's hopeless claim too


def test_with_no_forecast_that_fits_expected_decisions_shares_as_open_claims():
    args = dict(limit=[9, 9], cost=[1.0, 1.0], budget_s=6.0, needs=[[math.inf], [50]])
    assert share_rounds(Forecast(**args), 2, 1, EXPECTED_DECISIONS) == share_rounds(
        Forecast(**args), 2, 1, OPEN_CLAIMS_FIRST
    )


def test_until_decided_stops_once_no_open_claim_is_decidable_in_the_time_left():
    # the same units with time to spare: unit 1's and unit 2's claims are decided, unit 0's (100 rounds away, at 1 s a
    # round, more than the 60 s left) is not decidable here, so no round goes to it nor to precision alone
    units = Forecast(limit=[999] * 3, cost=[1.0, 2.0, 1.0], budget_s=60.0, needs=[[101], [4], [5, 5]])
    rounds = share_rounds(units, 3, 1, UNTIL_DECIDED)
    assert rounds == [1, 4, 5]
    assert units.claims(1, 4).open == 0 and units.claims(2, 5).open == 0 and units.claims(0, 1).open == 1
    roomy = Forecast(limit=[999] * 3, cost=[1.0, 2.0, 1.0], budget_s=1000.0, needs=[[101], [4], [5, 5]])
    assert share_rounds(roomy, 3, 1, UNTIL_DECIDED) == [101, 4, 5]  # with the time, it is decided too, then it ends
    hopeless = Forecast(limit=[999], cost=[1.0], budget_s=1000.0, needs=[[math.inf]])
    assert share_rounds(hopeless, 1, 2, UNTIL_DECIDED) == [2]  # the floor, and nothing for a claim no round decides


class Foreseen(Scripted):
    """Scripted units whose every round asks the guess made before it once it has started (as a pipelined run does)."""

    guess = None
    guesses: list = []

    def play(self, index: int, round_index: int) -> None:
        self.guesses.append(self.guess() if self.guess else None)
        super().play(index, round_index)


def test_the_guess_at_the_next_round_is_the_rules_own_choice_when_nothing_the_round_measures_changes_it():
    units = Foreseen(limit=[4, 1, 3], cost=[1.0, 1.0, 1.0], budget_s=6.0)
    units.guesses = []

    def foresee(guess):
        units.guess = guess

    rounds = share_rounds(units, 3, 2, PRECISION_ONLY, None, foresee)
    assert rounds == [3, 1, 2]
    # the floor in plan order (unit 1 wants one round only, which the guess asks the unit), then beyond it the unit
    # with the fewest rounds; the last guess counted the round being played but not its time: the rule then had no
    # time for unit 2's third round, and played none (a wrong guess costs a warm-up, never a round)
    assert units.played == [(0, 1), (0, 2), (1, 1), (2, 1), (2, 2), (0, 3)]
    assert units.guesses == [(0, 2), (1, 1), (2, 1), (2, 2), (0, 3), (2, 3)]


def test_a_guess_can_be_wrong_and_the_round_played_is_still_the_rules_choice():
    # unit 0 stops wanting rounds after its third, which the guess made while that round runs cannot know yet
    units = Foreseen(limit=[3, 9], cost=[1.0, 1.0], budget_s=100.0)
    units.guesses = []
    seen = []

    def foresee(guess):
        units.guess = guess

    def wants(index: int, rounds_done: int) -> bool:
        seen.append((index, rounds_done))
        return rounds_done < units.limit[index] if index == 0 else rounds_done < 4

    units.wants_rounds = wants  # type: ignore[method-assign]
    share_rounds(units, 2, 1, PRECISION_ONLY, None, foresee)
    assert units.played == [(0, 1), (1, 1), (0, 2), (1, 2), (0, 3), (1, 3), (1, 4)]
    assert units.guesses[4] == (1, 3) and units.guesses[-1] is None


@dataclass
class OneClaim(Scripted):
    """Scripted units whose open claim is forecast decided after `to_decide` more rounds."""

    to_decide: list[float] = field(default_factory=list)

    def claims(self, index: int, rounds_done: int) -> Claims:
        return Claims(open=1, read=1, to_decide=(self.to_decide[index],))


def test_a_near_tie_goes_to_the_unit_whose_process_is_warm_and_a_clear_lead_does_not():
    # unit 0 decides its claim after 4 rounds of 1 s (0.25 a second), unit 1 after 5 (0.2): unit 0 leads
    units = OneClaim(limit=[9, 9], cost=[1.0, 1.0], budget_s=100.0, to_decide=[4.0, 5.0])
    assert next_round(units, [3, 3], EXPECTED_DECISIONS) == 0
    # unit 1's process was warmed ahead: unit 0 pays a 2 s warm-up first, 1 / (4 + 2) < 0.2: unit 1
    assert next_round(units, [3, 3], EXPECTED_DECISIONS, warm=1, switch_s=2.0) == 1
    # a 0.5 s warm-up does not undo the lead: 1 / 4.5 > 0.2
    assert next_round(units, [3, 3], EXPECTED_DECISIONS, warm=1, switch_s=0.5) == 0
    assert next_round(units, [3, 3], EXPECTED_DECISIONS, warm=0, switch_s=2.0) == 0
    # the rules that do not forecast decisions are not moved
    assert next_round(units, [3, 3], OPEN_CLAIMS_FIRST, warm=1, switch_s=99.0) == 0


def test_sharing_charges_the_warm_up_to_every_unit_but_the_one_guessed():
    units = Foreseen(limit=[9, 9], cost=[1.0, 1.0], budget_s=12.0)

    def claims(index: int, rounds_done: int) -> Claims:
        # unit 0 decides after 4 more rounds; unit 1 after 5, until the third round's result says 3.5: a result the
        # guess made while that round ran could not know
        to_decide = 4.0 if index == 0 else (5.0 if len(units.played) < 3 else 3.5)
        return Claims(open=1, read=1, to_decide=(to_decide,))

    units.claims = claims  # type: ignore[method-assign]

    def foresee(guess):
        units.guess = guess

    def fourth(switch_s: float) -> tuple[int, int]:
        units.played, units.spent, units.guesses = [], 0.0, []
        share_rounds(units, 2, 1, EXPECTED_DECISIONS, None, foresee, lambda: switch_s)
        assert units.guesses[2] == (0, 3)  # during the third round (unit 0's), the guess is unit 0 again
        return units.played[3]

    assert fourth(0.0) == (1, 2)  # nothing charged: unit 1 now leads (1 / 3.5 > 1 / 4), the guess was wrong
    assert fourth(3.0) == (0, 3)  # a 3 s warm-up charged to unit 1: 1 / 6.5 < 1 / 4, the warm process goes
