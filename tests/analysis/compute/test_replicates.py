import math
import random
import statistics
import warnings

import pandas as pd
import pytest
from scipy import stats

from analysis.compute.replicates import replicate_statistics, summarize_cells


def _round(samples, index, status="ok", verification="passed", error=None, cell="e:b@native"):
    return {
        "cell_id": cell,
        "round_index": index,
        "status": status,
        "verification_status": verification,
        "verification_message": "m" if verification == "failed" else "ok",
        "error": error,
        "n": len(samples),
        "mean_ns": statistics.mean(samples),
        "stddev_ns": statistics.stdev(samples),
        "median_ns": statistics.median(samples),
        "min_ns": min(samples),
        "max_ns": max(samples),
        "ci99_half_width_ns": stats.t.ppf(0.995, len(samples) - 1)
        * statistics.stdev(samples)
        / math.sqrt(len(samples)),
        "allocated_bytes_per_op": 100,
        "gen0_collections": 1,
        "gen1_collections": 0,
        "gen2_collections": 0,
        "total_operations": 10,
        "duration_s": 1.0,
        "partner": None,
        "cpu_other_ms": 0.0,
        "steal_ms": 0.0,
        "involuntary_context_switches": 2,
    }


def test_the_interval_covers_the_spread_of_round_means_when_rounds_differ_far_more_than_their_iterations():
    # Three processes, each very steady inside (±0.1%) but 10% apart: the iterations are not independent draws.
    rounds = [
        _round([100.0 + 0.1 * i for i in range(-5, 5)], 1),
        _round([110.0 + 0.1 * i for i in range(-5, 5)], 2),
        _round([120.0 + 0.1 * i for i in range(-5, 5)], 3),
    ]
    cell = summarize_cells(pd.DataFrame(rounds)).iloc[0]
    means = [100.0 - 0.05, 110.0 - 0.05, 120.0 - 0.05]
    assert cell["ci99_lower_ns"] <= min(means) and cell["ci99_upper_ns"] >= max(means)
    # Pooling the 30 iterations (n = 30, as before) would give about ±5: far inside the round means' spread.
    pooled = statistics.stdev([v for r in (100, 110, 120) for v in [r + 0.1 * i for i in range(-5, 5)]])
    assert stats.t.ppf(0.995, 29) * pooled / math.sqrt(30) < (max(means) - min(means)) / 2
    assert cell["replicates"] == 3 and cell["n"] == 30
    assert cell["within_rel_ci99"] < 0.005  # the within-process diagnostic stays, labelled as such


def test_the_cell_interval_is_student_t_over_process_means():
    means = [100.0, 104.0, 98.0, 101.0, 97.0]
    rows = [_round([m - 1, m, m + 1], i + 1) for i, m in enumerate(means)]
    cell = summarize_cells(pd.DataFrame(rows)).iloc[0]
    half = stats.t.ppf(0.995, 4) * statistics.stdev(means) / math.sqrt(5)
    assert cell["time_ns"] == pytest.approx(statistics.mean(means))  # each process contributes its median iteration
    assert cell["ci99_half_width_ns"] == pytest.approx(half)
    assert cell["between_process_cv"] == pytest.approx(statistics.stdev(means) / statistics.mean(means))


def test_the_process_level_interval_covers_the_true_mean_about_99_percent_of_the_time():
    rng = random.Random(7)
    covered = 0
    for _ in range(400):
        rows = []
        for i in range(5):
            offset = rng.gauss(100.0, 8.0)  # each process's own speed
            rows.append(_round([offset + rng.gauss(0, 0.5) for _ in range(10)], i + 1))
        cell = summarize_cells(pd.DataFrame(rows)).iloc[0]
        covered += cell["ci99_lower_ns"] <= 100.0 <= cell["ci99_upper_ns"]
    assert covered / 400 >= 0.97


def test_one_unverified_round_makes_the_cell_unverified():
    cell = summarize_cells(
        pd.DataFrame([_round([1.0, 2.0], 1), _round([1.0, 2.0], 2, status="unverified", verification="failed")])
    ).iloc[0]
    assert cell["status"] == "unverified" and cell["verification_status"] == "failed"
    assert cell["rounds_measured"] == 2 and cell["total_operations"] == 20


def test_a_failed_round_is_left_out_and_said_so():
    failed = {**_round([1.0, 2.0], 2), "status": "failed", "error": "timed out", "n": None, "mean_ns": None}
    cell = summarize_cells(pd.DataFrame([_round([1.0, 2.0, 3.0], 1), failed])).iloc[0]
    assert cell["status"] == "ok" and cell["replicates"] == 1
    assert pd.isna(cell["ci99_half_width_ns"])  # one process: no interval, never a fake one
    assert cell["error"] == "1 of 2 rounds not measured: timed out"


def test_a_cell_with_no_measured_round_is_failed():
    rows = [{**_round([1.0, 2.0], i), "status": "failed", "error": "boom"} for i in (1, 2)]
    assert summarize_cells(pd.DataFrame(rows)).iloc[0]["status"] == "failed"


def test_a_run_whose_every_cell_failed_still_has_every_summary_column():
    """A payload run on the Docker backend whose document the containers could not read: every cell failed, and the
    report stopped with a KeyError ('time_ns' not in index) instead of saying so."""
    rows = [{**_round([1.0, 2.0], 1, cell=cell), "status": "failed", "error": "denied"} for cell in ("e:a", "e:b")]
    cells = summarize_cells(pd.DataFrame(rows))
    assert list(cells["status"]) == ["failed", "failed"] and cells["time_ns"].isna().all()


def test_the_worst_interference_of_a_cells_processes_is_kept():
    rows = [_round([1.0, 2.0], 1), {**_round([1.0, 2.0], 2), "cpu_other_ms": 400.0}]
    assert summarize_cells(pd.DataFrame(rows)).iloc[0]["interference_max"] == pytest.approx(0.4)


def test_single_shots_without_an_interval_of_their_own_summarize_without_a_warning():
    shots = pd.DataFrame(
        {
            "median_ns": [10.0, 11.0, 12.0],
            "mean_ns": [10.0, 11.0, 12.0],
            "min_ns": [10.0, 11.0, 12.0],
            "max_ns": [10.0, 11.0, 12.0],
            "n": [1, 1, 1],
            "ci99_half_width_ns": [float("nan")] * 3,
        }
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's "Mean of empty slice" on the report's stderr before
        summary = replicate_statistics(shots)
    assert summary["within_rel_ci99"] is None and summary["replicates"] == 3 and summary["time_ns"] == 11.0
