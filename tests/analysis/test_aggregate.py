import math

import pandas as pd
import pytest

from analysis.aggregate import median_relative_ci, ratio_with_ci


def test_ratios_are_taken_against_the_group_baseline_at_the_same_level(fake_cells):
    row = fake_cells[(fake_cells["benchmark"] == "SystemTextCaseInsensitive_Camel") & (fake_cells["isa_requested"] == "native")].iloc[0]
    assert row["ratio"] == pytest.approx(0.5)  # 1× against Newtonsoft's 2×
    assert row["baseline_mean_ns"] == pytest.approx(2 * row["mean_ns"])
    base = fake_cells[fake_cells["benchmark"] == "NewtonSoftJson_Camel"]
    assert (base["ratio"] == 1.0).all()


def test_a_comparison_with_an_unverified_side_is_void(fake_cells):
    camel = fake_cells[fake_cells["benchmark"] == "SystemTextCaseSensitive_Camel"]
    assert camel["comparison_void"].all()
    pascal = fake_cells[fake_cells["benchmark"] == "SystemTextCaseSensitive_Pascal"]
    assert not pascal["comparison_void"].any()


def test_ratio_interval_combines_both_relative_half_widths():
    ratio, half = ratio_with_ci(100.0, 3.0, 200.0, 8.0)
    assert ratio == 0.5
    assert half == pytest.approx(0.5 * math.hypot(0.03, 0.04))


def test_median_relative_ci_ignores_cells_without_a_measurement():
    df = pd.DataFrame({"status": ["ok", "unverified", "failed"], "rel_ci99": [0.01, 0.03, 0.5]})
    assert median_relative_ci(df) == pytest.approx(0.02)
