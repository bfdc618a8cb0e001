"""The design comparison (analysis/tools/designs.py) names each run by its method."""

from analysis.tools.designs import method_label
from harness.model.folder.run_records import RunRecord


def test_a_run_that_left_its_iterations_to_benchmarkdotnet_is_named_by_its_method():
    def run(design, job):
        return RunRecord(run_id="r", profile="p", design=design, stopping={}, job=job, cells=[])

    assert method_label(run("interleaved", {})) == "interleaved, BenchmarkDotNet's automatic job"
    assert method_label(run("interleaved", {"iteration_count": 10})) == "interleaved"
    assert method_label(run("paired", {})) == "paired"
