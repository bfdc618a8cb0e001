"""Memory claims (write-up 007's base + increase MiB): the increase of each single-shot process read from the kernel's
peak mark, judged as a ratio to the reference's with an interval over paired processes, across labs too, and shown
beside the published figure in the reproduction table."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest

from analysis.compute.aggregate import with_ratios, with_rss_increase
from analysis.compute.load import load_run
from analysis.compute.replicates import summarize_cells
from analysis.compute.verdicts.verdicts import verdict_table
from analysis.formatting.tables import reproduction_markdown
from harness.backends.fake import FakeBackend
from harness.config.experiment.experiments import load_experiments
from harness.session.runner import execute_run
from tests.conftest import FIXTURES, edited_experiments, on_selftest


@pytest.fixture(scope="module")
def memory_run(tmp_path_factory):
    """Write-up 007 on the fake backend, its 115 MB input swapped for the self-test document (nothing is generated):
    Newtonsoft 2× STJ's time and increase, Node half of both."""
    from harness.planning.run_plan import RunOptions

    tmp = tmp_path_factory.mktemp("memory")
    experiments = edited_experiments(tmp, e007=on_selftest)
    options = RunOptions(
        profile="default",
        experiments=("007",),
        experiments_dir=experiments,
        results_dir=tmp / "results",
        build=True,
        lab_cpuset="0",
        pin_harness=False,
        calibrate=False,
        budget_min=0,
    )
    backend = FakeBackend(
        FIXTURES / "dotnet-cell",
        time_scale={"newtonsoft-default": 2.0, "json-string": 0.5},
        process_spread=0.02,
    )
    summary = execute_run(options, backend)
    rows = load_run(summary.directory).rows
    return load_experiments(experiments)["007"], rows


def test_each_single_shot_process_has_its_increase_and_a_whole_process_peak_has_none():
    rows = pd.DataFrame(
        {
            "peak_rss_bytes": [60 << 20, 70 << 20, 80 << 20],
            "rss_before_bytes": [50 << 20, 50 << 20, None],
            "peak_rss_of": ["timed-calls", "process", None],
        }
    )
    increase = with_rss_increase(rows)["rss_increase_bytes"]
    assert increase.iloc[0] == 10 << 20 and increase.iloc[1:].isna().all()


def test_memory_increases_are_judged_as_ratios_with_intervals_within_a_lab_and_across_labs(memory_run):
    experiment, rows = memory_run
    table = verdict_table([experiment], with_ratios(summarize_cells(rows), rows), rows)
    memory = table[table["metric"] == "memory"].set_index("benchmark")
    assert set(memory.index) == {"newtonsoft", "node-json-parse"}
    newtonsoft, node = memory.loc["newtonsoft"], memory.loc["node-json-parse"]
    assert newtonsoft["published_ratio"] == pytest.approx(29.25 / 129.90, abs=1e-4)
    assert newtonsoft["ratio_source"] == "derived from published memory increases"
    assert newtonsoft["measured_ratio"] == pytest.approx(2.0, rel=0.01)  # 20 MiB over 10 MiB
    assert newtonsoft["measured_ratio_lower"] <= newtonsoft["measured_ratio"] <= newtonsoft["measured_ratio_upper"]
    assert newtonsoft["verdict"] == "not reproduced" and newtonsoft["measured_value"] == 20 << 20
    assert node["measured_ratio"] == pytest.approx(0.5, rel=0.01) and "across labs" in node["note"]
    times = table[(table["metric"] == "time") & table["measured_ratio"].notna()].set_index("benchmark")
    assert times.loc["node-json-parse", "measured_ratio"] == pytest.approx(0.5, rel=0.05)
    text = reproduction_markdown(table)
    assert "29.2 MiB → 20.0 MiB" in text and "283.9 MiB → 5.0 MiB" in text


def test_a_memory_figure_on_a_steady_state_experiment_is_refused(tmp_path):
    from harness.model.errors import ConfigError

    experiments = edited_experiments(
        tmp_path, e001=lambda text: text.replace("mean_ns = 500.8\n", "mean_ns = 500.8\nmemory_increase_mib = 3.0\n", 1)
    )
    with pytest.raises(ConfigError, match="has a published memory figure, but experiment 001 measures steady"):
        load_experiments(experiments)


def test_the_single_shot_estimate_grows_with_the_input_and_learns_the_variants_call_cost():
    from harness.model.cells import Cell, ShotSettings
    from harness.planning.estimate import ShotCosts

    cell = Cell("007", "stj", "g", "stj", "dotnet", "v", "big", "deserialize", "native", shot=ShotSettings())
    small = dataclasses.replace(cell, dataset="small")
    costs = ShotCosts({"big": 115_000_000, "small": 44})
    assert costs.process_seconds(small) == pytest.approx(0.35, abs=0.01)
    assert costs.process_seconds(cell) > 10 * costs.process_seconds(small)
    learned = ShotCosts({"big": 115_000_000}, {("dotnet", "v", "deserialize", "*"): 100.0})
    assert learned.learned(cell) and learned.process_seconds(cell) > costs.process_seconds(cell) + 20
    own = ShotCosts({"big": 115_000_000}, {**learned.rates, ("dotnet", "v", "deserialize", cell.runtime): 10.0})
    assert own.process_seconds(cell) < learned.process_seconds(cell) - 15  # its own runtime's rate first


def test_call_rates_are_learned_per_runtime_from_the_newest_run_with_single_shots(tmp_path):
    import json

    from harness.planning.history import load_call_rates

    def row(runtime, ns, measure="single-shot"):
        return {
            "cell_id": f"c{runtime}{ns}",
            "measure": measure,
            "lab": "dotnet",
            "variant": "v",
            "operation": "deserialize",
            "runtime_requested": runtime,
            "median_ns": ns,
            "payload_bytes": 1000,
        }

    run = tmp_path / "run-a"
    run.mkdir()
    rows = [row("10.0.12", 5000.0), row("10.0.12", 7000.0), row("3.1.3", 20000.0), row("10.0.12", 1.0, "steady")]
    (run / "results.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    rates = load_call_rates(tmp_path)
    assert rates[("dotnet", "v", "deserialize", "10.0.12")] == 6.0
    assert rates[("dotnet", "v", "deserialize", "3.1.3")] == 20.0
    assert rates[("dotnet", "v", "deserialize", "*")] == 7.0  # the median of the three single shots
