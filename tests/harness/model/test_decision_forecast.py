"""The forecast of how many processes an undecided claim needs (harness/model/stats/decision_forecast.py), checked
against the intervals the harness itself computes: simulated processes of a known spread reach the verdict near the
forecast."""

import math
import random

from harness.model.judging import INCONCLUSIVE, judge
from harness.model.stats.decision_forecast import decisions_per_second, processes_to_decide
from harness.model.stats.stats import ratio_interval


def test_a_decided_interval_needs_no_more_processes():
    assert processes_to_decide(1.0, 0.95, 1.05, 5) == 5  # inside the ±15% band
    assert processes_to_decide(1.0, 1.30, 1.40, 5) == 5  # wholly above it
    assert processes_to_decide(1.0, 0.50, 0.60, 5) == 5  # wholly below it


def test_no_interval_or_a_centre_on_an_edge_cannot_be_forecast():
    assert processes_to_decide(1.0, None, None, 1) == math.inf
    assert processes_to_decide(1.0, 1.05, 1.10, 1) == math.inf
    edge = 1.15
    assert processes_to_decide(1.0, edge / 1.05, edge * 1.05, 6) == math.inf


def test_a_centre_farther_from_the_edge_needs_fewer_processes():
    near = processes_to_decide(1.0, 0.98, 1.20, 5)  # centre about 1.085, 6.5% from the upper edge
    far = processes_to_decide(1.0, 0.90, 1.16, 5)  # centre about 1.02, 12% from it
    assert 5 < far < near < math.inf


def test_simulated_processes_reach_the_verdict_near_the_forecast():
    """Draw log-normal per-process ratios around 1.08 (7% below the 1.15 edge) with 6% spread: after 5 processes the
    forecast says when the interval leaves the edge; the interval computed at that count, from the same spread, does."""
    rng = random.Random(4)
    hits, trials = 0, 0
    for _ in range(300):
        draws = [math.exp(rng.gauss(math.log(1.08), 0.06)) for _ in range(400)]
        first = ratio_interval(draws[:5])
        forecast = processes_to_decide(1.0, first.lower, first.upper, 5)
        if forecast == 5 or not math.isfinite(forecast):
            continue
        trials += 1
        later = ratio_interval(draws[: int(forecast)])
        hits += judge(1.0, later.estimate, False, later.lower, later.upper) != INCONCLUSIVE
    assert trials > 100 and hits > trials * 0.4  # a forecast from 5 noisy processes: right about half the time or more


def test_decisions_per_second_takes_the_best_prefix_of_the_cheapest_claims():
    assert decisions_per_second([], 2.0) == 0
    assert decisions_per_second([math.inf], 2.0) == 0
    assert decisions_per_second([0.0], 2.0) == 0.5  # at least one round
    assert decisions_per_second([4.0, 4.0], 1.0) == 0.5  # both after 4 rounds: 2 per 4 s
    assert decisions_per_second([1.0, 100.0], 1.0) == 1.0  # the cheap one alone is the better rate
