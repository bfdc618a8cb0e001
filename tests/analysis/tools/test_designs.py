"""The design comparison (analysis/tools/designs.py) names each run by its method."""

from analysis.tools.designs import method_label
from harness.model.cells import JobSettings
from harness.model.folder.run_records import RunRecord


def test_a_run_that_left_its_iterations_to_benchmarkdotnet_is_named_by_its_method():
    def run(design, job):
        return RunRecord(run_id="r", profile="p", design=design, stopping={}, job=JobSettings(**job), cells=[])

    assert method_label(run("interleaved", {})) == "interleaved, BenchmarkDotNet's automatic job"
    assert method_label(run("interleaved", {"iteration_count": 10})) == "interleaved"
    assert method_label(run("paired", {})) == "paired"


def test_two_designs_are_compared_at_equal_machine_time():
    import pandas as pd
    import pytest

    from analysis.tools.designs import at_equal_time, design_markdown

    summary = pd.DataFrame(
        {
            "design": ["interleaved, BenchmarkDotNet's automatic job", "paired"],
            "ratios": [4, 4],
            "pairs": [3.0, 12.0],
            "pair_cv": [0.06, 0.03],
            "pair_correlation": [0.1, 0.9],
            "rel_half_width": [0.20, 0.02],
            "machine_s_per_pair": [60.0, 5.0],
            "minutes_to_target": [90.0, 1.0],
        }
    )
    # the publisher's method took 36 machine-minutes, the paired run 4: projected to 36, the paired width narrows 3x
    out = at_equal_time(summary, {"interleaved, BenchmarkDotNet's automatic job": 36.0, "paired": 4.0})
    assert out["equal_time_half_width"].tolist() == pytest.approx([0.20, 0.02 / 3])
    assert out["width_vs_first"].tolist() == pytest.approx([1.0, 1 / 30])
    text = design_markdown(out)
    assert "Width at equal time" in text and "0.03×" in text and "36.0" in text
