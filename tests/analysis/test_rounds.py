import math
import statistics

import pandas as pd
import pytest
from scipy import stats

from analysis.rounds import pool_rounds, pooled_statistics


def _round(samples, index, status="ok", verification="passed", error=None):
    return {"cell_id": "e:b@native", "round_index": index, "status": status, "verification_status": verification,
            "verification_message": "m" if verification == "failed" else "ok", "error": error,
            "n": len(samples), "mean_ns": statistics.mean(samples), "stddev_ns": statistics.stdev(samples),
            "median_ns": statistics.median(samples), "min_ns": min(samples), "max_ns": max(samples),
            "allocated_bytes_per_op": 100, "gen0_collections": 1, "gen1_collections": 0, "gen2_collections": 0,
            "total_operations": 10, "duration_s": 1.0}


def test_pooling_rounds_equals_statistics_of_all_iterations_together():
    a, b = [10.0, 11.0, 12.0, 11.0], [20.0, 21.0, 19.0]
    pooled = pooled_statistics(pd.DataFrame([_round(a, 1), _round(b, 2)]))
    everything = a + b
    assert pooled["n"] == 7
    assert pooled["mean_ns"] == pytest.approx(statistics.mean(everything))
    assert pooled["stddev_ns"] == pytest.approx(statistics.stdev(everything))
    se = statistics.stdev(everything) / math.sqrt(7)
    assert pooled["ci99_half_width_ns"] == pytest.approx(stats.t.ppf(0.995, 6) * se)


def test_one_unverified_round_makes_the_cell_unverified():
    cell = pool_rounds(pd.DataFrame([_round([1.0, 2.0], 1), _round([1.0, 2.0], 2, status="unverified", verification="failed")])).iloc[0]
    assert cell["status"] == "unverified" and cell["verification_status"] == "failed"
    assert cell["rounds_measured"] == 2 and cell["total_operations"] == 20


def test_a_failed_round_is_left_out_and_said_so():
    failed = {**_round([1.0, 2.0], 2), "status": "failed", "error": "timed out", "n": None, "mean_ns": None}
    cell = pool_rounds(pd.DataFrame([_round([1.0, 2.0, 3.0], 1), failed])).iloc[0]
    assert cell["status"] == "ok" and cell["n"] == 3
    assert cell["error"] == "1 of 2 rounds not measured: timed out"


def test_a_cell_with_no_measured_round_is_failed():
    rows = [{**_round([1.0, 2.0], i), "status": "failed", "error": "boom"} for i in (1, 2)]
    assert pool_rounds(pd.DataFrame(rows)).iloc[0]["status"] == "failed"
