"""The change-point search on figure histories: a clear step found at its place with an interval that excludes no
change, a step inside the runs' intervals not, a scattered history judged with its scatter, broken readings left
out, and the synthetic study's detection rate and false alarms on known steps and known noise."""

from __future__ import annotations

import math

import pytest

from analysis.compute.change_points import Reading, change_points, usable
from analysis.compute.change_study import Scenario, study, study_table


def _history(ratios: list[float], half_width: float = 0.01, pairs: int | None = 8) -> list[Reading]:
    return [Reading(f"r{i}", r, r * (1 - half_width), r * (1 + half_width), pairs) for i, r in enumerate(ratios)]


def test_a_flat_history_has_no_change():
    assert change_points(_history([1.0, 1.002, 0.998, 1.001, 0.999, 1.0])) == []


def test_a_clear_step_is_found_between_its_runs_with_an_interval_that_excludes_no_change():
    (change,) = change_points(_history([1.0, 1.0, 1.001, 0.999, 1.10, 1.10, 1.099]))
    assert (change.before_run, change.after_run, change.index) == ("r3", "r4", 4)
    assert change.change == pytest.approx(0.10, abs=0.003)
    assert 0 < change.lower < change.change < change.upper
    assert change.level == pytest.approx(0.99)
    assert change.sentence().startswith("moved between run r3 and run r4 by +10.0% [+")


def test_two_steps_are_both_found_in_run_order():
    changes = change_points(_history([1.0, 1.0, 1.0, 0.9, 0.9, 0.9, 1.2, 1.2]))
    assert [c.index for c in changes] == [3, 6]
    assert changes[0].change < 0 < changes[1].change


def test_a_step_inside_the_runs_intervals_is_not_a_change():
    assert change_points(_history([1.0, 1.0, 1.0, 1.01, 1.01, 1.01], half_width=0.03)) == []


def test_a_history_that_scatters_beyond_its_intervals_is_judged_with_its_scatter():
    # Alternating runs 4 % apart with intervals of ±0.5 %: every run differs from its neighbour far beyond its own
    # interval, so the excess between runs is estimated and no place is a step.
    ratios = [1.0, 1.04, 1.0, 1.04, 1.0, 1.04, 1.0, 1.04, 1.0, 1.04]
    assert change_points(_history(ratios, half_width=0.005)) == []


def test_wider_intervals_from_fewer_pairs_weigh_less():
    few, many = _history([1.0], pairs=3)[0], _history([1.0], pairs=30)[0]
    assert few.variance < many.variance  # the same width from 3 pairs means a larger t quantile: a smaller error
    assert _history([1.0], pairs=None)[0].variance > many.variance


@pytest.mark.parametrize(
    "broken",
    [
        Reading("x", math.nan, 0.9, 1.1),
        Reading("x", 1.0, 0.0, 1.1),
        Reading("x", 1.0, 1.05, 1.1),
        Reading("x", math.inf, 0.9, math.inf),
        Reading("x", -1.0, -2.0, 0.5),
    ],
)
def test_a_broken_reading_is_left_out(broken):
    readings = _history([1.0, 1.0, 1.0])
    assert usable([*readings, broken]) == readings
    assert change_points([*readings, broken, *_history([1.0, 1.0])]) == []


def test_one_reading_or_none_has_no_change():
    assert change_points([]) == [] and change_points(_history([1.3])) == []


def test_the_study_finds_large_steps_and_rarely_cries_wolf():
    found = study(Scenario(step=0.05), histories=150, seed=7)
    assert found.detection_rate >= 0.95
    assert study(Scenario(step=0.01), histories=150, seed=7).detection_rate < found.detection_rate
    quiet = study(Scenario(), histories=150, seed=7)
    assert quiet.false_alarm_rate <= 0.03 and quiet.detection_rate is None
    assert study(Scenario(drift=0.005), histories=150, seed=7).false_alarm_rate <= 0.08
    assert 0.015 < quiet.median_half_width < 0.025  # the lab's median interval, about ±2 %


def test_the_study_is_the_same_for_the_same_seed_and_its_table_has_a_line_per_scenario():
    scenario = Scenario(step=0.03)
    assert study(scenario, 40, seed=3) == study(scenario, 40, seed=3)
    table = study_table([study(scenario, 40, seed=3), study(Scenario(), 40, seed=3)])
    assert table.count("\n| 10 | 6 |") == 2 and "40 histories per line" in table
