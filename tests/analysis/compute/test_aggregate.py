import math

import pandas as pd
import pytest

from analysis.compute.aggregate import median_relative_ci


def test_ratios_are_taken_against_the_group_baseline_at_the_same_level(fake_cells):
    row = fake_cells[
        (fake_cells["benchmark"] == "SystemTextCaseInsensitive_Camel") & (fake_cells["isa_requested"] == "native")
    ].iloc[0]
    assert row["ratio"] == pytest.approx(0.5, rel=0.03)  # 1× against Newtonsoft's 2×, each process ±1%
    assert row["baseline_time_ns"] == pytest.approx(2 * row["time_ns"], rel=0.03)
    base = fake_cells[fake_cells["benchmark"] == "NewtonSoftJson_Camel"]
    assert (base["ratio"] == 1.0).all()


def test_a_comparison_with_an_unverified_side_is_void(fake_cells):
    camel = fake_cells[fake_cells["benchmark"] == "SystemTextCaseSensitive_Camel"]
    assert camel["comparison_void"].all()
    pascal = fake_cells[fake_cells["benchmark"] == "SystemTextCaseSensitive_Pascal"]
    assert not pascal["comparison_void"].any()


def test_ratio_intervals_come_from_paired_processes_and_are_narrower_than_the_cells_when_offsets_are_shared(
    fake_cells, fake_rows
):
    row = fake_cells[
        (fake_cells["benchmark"] == "SystemTextCaseInsensitive_Camel") & (fake_cells["isa_requested"] == "native")
    ].iloc[0]
    assert row["ratio_pairs"] == row["replicates"] >= 3
    assert row["ratio_ci99_lower"] < row["ratio"] < row["ratio_ci99_upper"]
    mine = fake_rows[(fake_rows["cell_id"] == row["cell_id"])].sort_values("round_index")["median_ns"].to_numpy()
    base = (
        fake_rows[(fake_rows["cell_id"] == "000:NewtonSoftJson_Camel@native/10.0.12")]
        .sort_values("round_index")["median_ns"]
        .to_numpy()
    )
    assert row["ratio"] == pytest.approx(math.exp(sum(math.log(a / b) for a, b in zip(mine, base)) / len(mine)))


def test_median_relative_ci_ignores_cells_without_a_measurement():
    df = pd.DataFrame({"status": ["ok", "unverified", "failed"], "rel_ci99": [0.01, 0.03, 0.5]})
    assert median_relative_ci(df) == pytest.approx(0.02)
