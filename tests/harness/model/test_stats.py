import math
import random

import pytest
from scipy import stats

from harness.model.stats.pairing import Replicate, paired_ratio_interval, paired_ratios
from harness.model.stats.stats import mean_interval, ratio_interval, replicates_for


def test_a_ratio_interval_is_symmetric_on_the_log_scale_and_inverts_exactly():
    ratios = [0.50, 0.52, 0.49, 0.51]
    a, b = ratio_interval(ratios), ratio_interval([1 / r for r in ratios])
    assert a.estimate == pytest.approx(1 / b.estimate)
    assert a.lower == pytest.approx(1 / b.upper) and a.upper == pytest.approx(1 / b.lower)
    assert a.estimate == pytest.approx(math.prod(ratios) ** 0.25)


def test_one_replicate_has_no_interval():
    interval = mean_interval([5.0])
    assert interval.lower is None and interval.half_width is None and interval.relative_half_width is None


def test_paired_ratios_pair_rounds_and_duets():
    a = [Replicate("a", 1, None, 10.0), Replicate("a", 2, None, 12.0)]
    base = [Replicate("base", 1, None, 20.0), Replicate("base", 2, None, 30.0), Replicate("base", 3, None, 25.0)]
    assert paired_ratios(a, base) == [0.5, 0.4]  # round 3 of the baseline has no partner
    duet_a = [Replicate("a", 1, "base", 10.0), Replicate("a", 2, "base", 11.0)]
    duet_base = [Replicate("base", 1, "a", 20.0), Replicate("base", 1, "c", 99.0), Replicate("base", 2, "a", 22.0)]
    assert paired_ratios(duet_a, duet_base) == [0.5, 0.5]  # each with the baseline process that ran beside it


def test_a_benchmark_against_itself_is_exactly_one():
    reps = [Replicate("base", i, None, 10.0 + i) for i in range(1, 4)]
    interval = paired_ratio_interval(reps, reps)
    assert (interval.estimate, interval.lower, interval.upper) == (1.0, 1.0, 1.0)


def test_the_paired_ratio_interval_covers_the_true_ratio_about_99_percent_of_the_time():
    rng = random.Random(3)
    covered = 0
    for _ in range(500):
        ratios = [0.5 * math.exp(rng.gauss(0, 0.1)) for _ in range(6)]
        interval = ratio_interval(ratios)
        covered += interval.lower <= 0.5 <= interval.upper
    assert covered / 500 >= 0.97


def test_replicates_needed_for_a_target_follow_the_t_distribution():
    n = replicates_for(0.02, 0.05)
    assert stats.t.ppf(0.995, n - 1) * 0.05 / math.sqrt(n) <= 0.02 < stats.t.ppf(0.995, n - 2) * 0.05 / math.sqrt(n - 1)
