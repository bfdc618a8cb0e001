"""The noise forecast: what a budget decides at the spread a probe's first processes showed."""

import math
import random
import statistics

import pytest

from harness.model.stats.noise_forecast import (
    GroupShare,
    ProbedRatio,
    corrected_sd,
    forecast,
    group_processes,
    processes_for,
    rel_half_width,
    scaled_count,
    shared_rounds,
)
from harness.model.stats.stats import ratio_interval, t_quantile


@pytest.mark.parametrize("processes", [2, 3, 5])
def test_a_corrected_spread_is_right_in_median_where_the_raw_one_is_low(processes):
    rng = random.Random(11)
    sigma = 0.04
    raw = [statistics.stdev([rng.gauss(0, sigma) for _ in range(processes)]) for _ in range(4000)]
    corrected = [corrected_sd(s, processes) for s in raw]
    assert statistics.median(raw) < 0.95 * sigma  # the bias the correction exists for
    assert statistics.median(corrected) == pytest.approx(sigma, rel=0.04)


def test_the_half_width_is_the_reports_interval_at_that_spread():
    rng = random.Random(3)
    ratios = [math.exp(rng.gauss(0.1, 0.03)) for _ in range(12)]
    interval = ratio_interval(ratios)
    spread = statistics.stdev(math.log(r) for r in ratios)
    assert rel_half_width(spread, 12, t_quantile) == pytest.approx(interval.relative_half_width, rel=1e-9)


def test_the_processes_for_a_target_are_the_fewest_that_reach_it():
    n = processes_for(0.02, 0.03, t_quantile)
    assert n is not None
    assert rel_half_width(0.03, n, t_quantile) <= 0.02 < rel_half_width(0.03, n - 1, t_quantile)
    assert processes_for(0.001, 5.0, t_quantile, cap=500) is None


def test_groups_without_a_claim_keep_their_floor_and_the_rest_goes_to_those_with_one():
    shares = [GroupShare("a", 10.0, True), GroupShare("b", 5.0, True), GroupShare("c", 20.0, False)]
    # 900 s: the claimless group's floor of 5 rounds costs 100 s, the rest (800 s) over 15 s per steering round: 53.
    assert shared_rounds(900.0, shares, 5) == {True: 53, False: 5}
    assert shared_rounds(50.0, shares, 5) == {True: 5, False: 5}  # too little: the floor still runs


def test_a_group_stops_where_its_widest_ratio_reaches_the_target_or_at_its_caps():
    share = GroupShare("g", 4.0, True, max_rounds=40, time_cap_s=120.0, min_rounds=6)
    assert group_processes(share, 100, 0.2, 0.02, t_quantile) == 30  # the time cap: 120 s / 4 s
    assert group_processes(share, 12, 0.2, 0.02, t_quantile) == 12  # the share
    reached = processes_for(0.02, 0.015, t_quantile)
    assert group_processes(share, 30, 0.015, 0.02, t_quantile) == max(6, reached)
    assert group_processes(share, 3, 0.2, None, t_quantile) == 6  # never below the minimum


def test_the_forecast_is_the_median_half_width_and_the_claims_left_straddling_an_edge():
    shares = [GroupShare("quiet", 4.0, True, 40, None, 2), GroupShare("noisy", 4.0, True, 40, None, 2)]
    ratios = [
        ProbedRatio("quiet", "aa", 0.001, 3),
        ProbedRatio("quiet", "b", 0.01, 3),
        ProbedRatio("noisy", "aa", 0.002, 3),
        ProbedRatio("noisy", "c", 0.10, 3),
        ProbedRatio("noisy", "d", 0.12, 3),
    ]
    claims = [
        ProbedRatio("noisy", "c", 0.10, 3, published=1.0, centre=1.16),  # just past the band's edge
        ProbedRatio("noisy", "d", 0.12, 3, published=1.0, centre=3.0),  # far outside: decided
        ProbedRatio("quiet", "b", 0.01, 3, published=2.0, centre=2.0),  # on the published ratio
    ]
    result = forecast(ratios, claims, shares, {True: 20, False: 5}, 0.02, t_quantile)
    assert result.processes["noisy"] == 20  # its widest never reaches ±2% within the share
    assert result.processes["quiet"] < 20  # stopped at the target
    widths = sorted(rel_half_width(corrected_sd(r.sd_log, 3), result.processes[r.group], t_quantile) for r in ratios)
    assert result.median_rel_ci == pytest.approx(widths[2])
    assert (result.probed_claims, result.inconclusive_probed) == (3, 1)
    assert scaled_count(1, 3, 120) == pytest.approx(40.0) and scaled_count(0, 0, 120) is None


def test_a_ratio_of_one_process_gives_no_forecast():
    result = forecast(
        [ProbedRatio("g", "b", 0.0, 1)], [], [GroupShare("g", 1.0, True)], {True: 9, False: 5}, 0.02, t_quantile
    )
    assert result.median_rel_ci is None and result.spread_median is None and result.processes == {}
