"""The published table's own evidence (harness/model/published_stability.py): read from the rows' Error, StdDev, Min and
Median the write-ups printed (experiments/00[0-4]-*.toml), and judged the same way for a user's own figures."""

from __future__ import annotations

import math

import pytest

from harness.config.experiment.experiments import load_experiments
from harness.model.experiment import Claim
from harness.model.published_stability import UNSTABLE_MIN_GAP, UNSTABLE_STDDEV, RowSpread, row_spread, stability_of


def _claim(variant: str, benchmark: str, mean: float | None, **statistics: float) -> Claim:
    return Claim(
        scenario="s",
        published_variant=variant,
        published_baseline="none",
        hardware="H1",
        benchmark=benchmark,
        derived_baseline="base",
        mean_ns=mean,
        **{f"published_{name}_ns": value for name, value in statistics.items()},
    )


def _figure(experiment: str, scenario: str, variant: str) -> Claim:
    return next(
        c for c in load_experiments()[experiment].claims if c.scenario == scenario and c.published_variant == variant
    )


def test_jils_1000_model_row_of_004_is_unstable_in_its_own_table_and_netjson_beside_it_is_not():
    claims = load_experiments()["004"].claims
    jil = stability_of(_figure("004", "Serialization String, 1000 SimpleModel", "Jil"), claims)
    assert jil is not None and jil.unstable
    assert "Jil's StdDev is 15% of its mean" in jil.reasons
    assert "Jil's minimum is 36% below its median" in jil.reasons
    one = stability_of(_figure("004", "Serialization String, 1 SimpleModel", "NetJson"), claims)
    assert one is not None and not one.unstable and "steady in its own table" in one.text()


def test_the_published_ratios_own_interval_combines_both_rows_error():
    claims = (
        _claim("A", "a", 100.0, error=3.0, stddev=2.0),
        _claim("Base", "base", 200.0, error=8.0, stddev=4.0),
    )
    stability = stability_of(claims[0], claims)
    assert stability is not None and stability.ratio_error_share == pytest.approx(math.hypot(0.03, 0.04))
    assert stability.text().startswith("±5.0% (its table's Error, 99.9 %)")
    assert stability_of(claims[1], claims).ratio_error_share is None  # the baseline's own row: no ratio of its own


def test_a_row_without_statistics_has_no_evidence_and_one_without_error_has_no_ratio_interval():
    assert row_spread(_claim("A", "a", 100.0)) is None
    assert row_spread(_claim("A", "a", None, stddev=1.0)) is None  # statistics describe a mean
    claims = (_claim("A", "a", 100.0, stddev=1.0), _claim("Base", "base", 100.0, error=1.0))
    stability = stability_of(claims[0], claims)
    assert stability is not None and stability.ratio_error_share is None


@pytest.mark.parametrize(
    "spread, unstable",
    [
        (RowSpread("x", 100.0, stddev_ns=100 * UNSTABLE_STDDEV), False),  # at the threshold: steady
        (RowSpread("x", 100.0, stddev_ns=100 * UNSTABLE_STDDEV + 0.1), True),
        (RowSpread("x", 100.0, min_ns=100 * (1 - UNSTABLE_MIN_GAP), median_ns=100.0), False),
        (RowSpread("x", 100.0, min_ns=100 * (1 - UNSTABLE_MIN_GAP) - 0.1, median_ns=100.0), True),
        (RowSpread("x", 100.0, min_ns=5.0, median_ns=0.0), False),  # a median of 0 says nothing
    ],
)
def test_the_thresholds(spread, unstable):
    assert bool(spread.unstable()) is unstable


def test_the_seed_write_ups_print_their_rows_statistics_and_the_experiments_carry_them():
    experiments = load_experiments()
    counts = {
        e: sum(row_spread(c) is not None for c in experiments[e].claims) for e in ("000", "001", "002", "003", "004")
    }
    assert counts == {"000": 19, "001": 7, "002": 62, "003": 8, "004": 72}
