"""The overlap probe's summary: per member the ratio under each condition and its between-process spread."""

from __future__ import annotations

import math

import pytest

from harness.model.stats.overlap import ProbeRow, summary


def _rows(condition: str, factors: list[float]) -> list[ProbeRow]:
    """Processes of one group: baseline 100 ns, its A/A copy 100, a member at 50 ns times each process's factor."""
    return [
        ProbeRow.of("g", condition, i, 3.0, 0, 0, [[100.0] * 3, [100.0] * 3, [50.0 * f] * 3])
        for i, f in enumerate(factors)
    ]


def test_a_row_reads_each_members_ratio_to_the_baseline_as_the_median_of_per_round_ratios():
    row = ProbeRow.of("g", "idle", 0, 1.0, 0, 1, [[10.0, 30.0, 20.0], [10.0, 10.0, 10.0]])
    assert row.ratios == [2.0, 1.0] and row.medians_ns == [20.0, 10.0]


def test_the_summary_shows_a_wider_spread_and_a_moved_ratio_under_load():
    idle = _rows("idle", [0.99, 1.0, 1.01, 1.0])
    load = _rows("load", [0.95, 1.05, 1.1, 1.0])
    entries = summary(idle + load)
    member = next(e for e in entries if e.get("member") == 2)
    assert member["idle_ratio"] == pytest.approx(0.5, rel=1e-3)
    assert member["load_ratio_sd_pct"] > 5 * member["idle_ratio_sd_pct"]
    expected = math.exp(sum(math.log(f) for f in [0.95, 1.05, 1.1, 1.0]) / 4)
    assert member["ratio_load_vs_idle"] == pytest.approx(expected / 1.0, rel=1e-2)
    group = entries[-1]
    assert group["processes"] == {"idle": 4, "load": 4}
    assert group["median_ratio_sd_pct"]["load"] > group["median_ratio_sd_pct"]["idle"]


def test_a_group_with_too_few_processes_under_a_condition_is_left_out():
    assert summary(_rows("idle", [1.0, 1.0, 1.0]) + _rows("load", [1.0, 1.0])) == []
