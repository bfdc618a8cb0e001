"""The publisher's setup beside this run's (analysis/compute/verdicts/setup_factors.py): each factor's row says whether
the two agree and, where they differ, whether this host can change it and how, from the run's own environment and
labs."""

import dataclasses

import pandas as pd
import pytest

from analysis.compute.load import load_run
from analysis.compute.verdicts.setup_factors import NO, SAME, UNSTATED, YES, setup_table
from analysis.compute.verdicts.setup_here import RunSide
from analysis.render.writer import write_report
from harness.config.data.datasets import load_manifest
from harness.config.experiment.experiments import load_experiments
from harness.config.lab.labs import load_labs
from harness.model.cells import JobSettings
from harness.model.folder.run_folder import REPORT_DIR, TABLES_DIR


@pytest.fixture(scope="module")
def run(fake_run):
    return load_run(fake_run)


def _side(run, **env_changes) -> RunSide:
    env = dataclasses.replace(run.environment, **env_changes)
    return RunSide(env, run.run, load_labs(), load_manifest())


def _cells(experiment: str, runtime: str = "10.0.12", isa: str = "native", dataset: str = "x", settings=None):
    return pd.DataFrame(
        [
            {
                "experiment": experiment,
                "lab": "dotnet",
                "runtime_requested": runtime,
                "isa_requested": isa,
                "dataset": dataset,
                "run_settings": settings or {},
                "replicates": 6,
            }
        ]
    )


def _rows(table: pd.DataFrame, hardware: str) -> dict[str, tuple[str, str]]:
    mine = table[table["hardware"] == hardware]
    return {r.factor: (r.changeable, r.how) for r in mine.itertuples()}


def test_the_report_sets_each_published_machine_s_setup_beside_this_run(fake_run):
    report = write_report(fake_run).read_text()
    section = report[report.index("## Setup: publisher and this run") :]
    assert "### 001 (H001)" in section and "| OS | macOS 11.2.3 (20D91) [Darwin 20.3.0] |" in section
    table = pd.read_csv(fake_run / REPORT_DIR / TABLES_DIR / "setup.csv")
    assert set(table["hardware"]) == {"H000a", "H000b", "H001"}
    assert table.groupby("hardware").size().eq(15).all(), "every factor of every published machine"
    h001 = _rows(table, "H001")
    assert h001["OS"][0] == NO and h001["ISA level"][0] == SAME, "the fake run measured no-avx512, H001's level"
    assert h001["GC"][0] == UNSTATED and h001["Method"][0] == YES, "the fake run's job is the lab's own"
    assert h001["Data"] == (SAME, "the write-up's own bytes (datasets/manifest.json)")


def test_a_knob_the_publisher_set_is_changeable_only_where_the_lab_can_set_it_on_this_host(run):
    """007's .NET ran with Server GC and tiered compilation off (their Directory.Build.props)."""
    exp = load_experiments()["007"]
    one_cpu = _rows(setup_table([exp], _cells("007"), _side(run, lab_cpuset="1")), "H007")
    assert one_cpu["GC"][0] == NO and "needs 2 CPUs in a process" in one_cpu["GC"][1]
    assert one_cpu["Tiered compilation"] == (YES, 'run setting `tiered_compilation = "off"`')
    # a lab CPU set of two changes nothing: every design pins each process to one CPU of it
    two_cpus = _rows(setup_table([exp], _cells("007"), _side(run, lab_cpuset="0-1")), "H007")
    assert two_cpus["GC"][0] == NO and "the lab pins each process to one CPU of its set (this run: CPU 0-1)" in (
        two_cpus["GC"][1]
    )
    asked = _cells("007", settings={"gc": "server", "tiered_compilation": "off"})
    matched = _rows(setup_table([exp], asked, _side(run, lab_cpuset="0-1")), "H007")
    assert matched["GC"][0] == SAME and matched["Tiered compilation"][0] == SAME


def test_the_runtime_build_is_the_same_changeable_or_not_by_the_versions_the_lab_is_built_for(run):
    exp = load_experiments()["004"]  # published on .NET 8.0.0
    side = _side(run)
    other = _rows(setup_table([exp], _cells("004", runtime="10.0.12"), side), "H004")
    assert other["Runtime build"] == (YES, "`--runtime 8.0.0` (not measured in this run)")
    assert other["ISA level"] == (YES, "`--isa no-avx512` (not measured in this run)")
    # 000's blog printed only the SDK (3.1.100): ".NET Core 3.1", no patch release to match
    blog = _rows(setup_table([load_experiments()["000"]], _cells("000"), side), "H000a")
    assert blog["Runtime build"][0] == NO and "does not give the patch release of 3.1" in blog["Runtime build"][1]


def test_generated_data_is_not_the_publisher_s_bytes_and_versions_that_differ_are_named(run):
    exp = load_experiments()["004"]
    rows = setup_table([exp], _cells("004", dataset="simple-models-1000"), _side(run))
    h004 = _rows(rows, "H004")
    assert h004["Data"][0] == NO
    data = rows[rows["factor"] == "Data"].iloc[0]
    assert "generator simple-models, seed 4" in data["this_run"] and "Bogus 35.5.0" in data["published"]
    assert h004["Hybrid cores"][0] == NO, "a hybrid laptop CPU is not this host's"
    assert h004["Library versions"][0] == YES and "just explain --experiment 004" in h004["Library versions"][1]


def test_a_run_of_the_write_ups_method_matches_their_method(run):
    automatic = dataclasses.replace(run.run, design="interleaved", job=JobSettings())
    side = RunSide(run.environment, automatic, load_labs(), load_manifest())
    h004 = _rows(setup_table([load_experiments()["004"]], _cells("004", runtime="8.0.0"), side), "H004")
    assert h004["Method"] == (SAME, "BenchmarkDotNet's automatic job in fresh processes")  # 004 ran DefaultJob
    h002 = _rows(setup_table([load_experiments()["002"]], _cells("002", runtime="3.1.3"), side), "H002e")
    assert h002["Method"][0] == YES and "own job settings" in h002["Method"][1], "002 set its own iteration time"


def test_a_write_up_that_states_nothing_leaves_every_machine_factor_not_stated(run):
    h003 = _rows(setup_table([load_experiments()["003"]], _cells("003", runtime="9.0.20"), _side(run)), "H003")
    for factor in ("OS", "CPU", "Hybrid cores", "Cores", "GC", "Tiered compilation", "Pinned", "Power"):
        assert h003[factor][0] == UNSTATED, factor
