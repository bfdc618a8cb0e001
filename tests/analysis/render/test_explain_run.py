"""An explain run end to end on the fake backend: a figure measured on its runtime and on that runtime built with the
write-up's library version, whose ratio the switch moves, gets its 'Explained by' entry and its ladder chart."""

import json

import pandas as pd

from analysis.render.writer import write_report
from harness.backends.fake import FakeBackend
from harness.planning.run_plan import RunOptions
from harness.session.runner import execute_run
from tests.conftest import FIXTURES, edited_experiments, on_selftest

SWITCHED = "8.0.0+Newtonsoft.Json=13.0.3"  # its lock file is committed: no registry is asked


def _run(tmp_path, fast_at: str, **options):
    """A run on the fake backend whose Newtonsoft.Json is 2x slower than the captured cell, except at `fast_at`."""
    backend = FakeBackend(
        FIXTURES / "dotnet-cell",
        time_scale={"newtonsoft-default": 2.0, f"newtonsoft-default@{fast_at}": 1.0},
        process_spread=0.01,
    )
    fixed = dict(results_dir=tmp_path, lab_cpuset="0", pin_harness=False, calibrate=False)
    return execute_run(RunOptions(**fixed, **options), backend).directory


def test_a_switch_that_moves_a_ratio_is_named_in_the_report(tmp_path):
    # Newtonsoft.Json 2x slower than the captured cell on the lab's own build, as fast with the write-up's version
    run = _run(
        tmp_path,
        SWITCHED,
        profile="default",
        runtimes=("8.0.0", SWITCHED),
        experiments=("001",),
        isa_levels=("native",),  # the fake lab knows .NET 10's switch names only
        run_id="explain-run",
    )
    report = write_report(run)
    table = pd.read_csv(report.parent / "tables" / "reproduction.csv")
    assert set(table["runtime"]) == {"8.0.0", SWITCHED}
    moved = table[table["primary"] & table["explained_by"].fillna("").str.contains("Newtonsoft.Json 13.0.3: ")]
    assert not moved.empty
    assert moved["explained_by"].str.contains(r"moves it (?:toward|away from) the published").any()
    text = report.read_text()
    assert "Explained by" in text
    ladders = sorted((report.parent / "charts").glob("001-explained-*.png"))
    figures = table[table["primary"] & (table["metric"] == "time") & (table["runtime"] == "8.0.0")]
    assert len(ladders) == figures["measured_ratio"].notna().sum() > 1  # one ladder per figure
    for ladder in ladders:
        drawn = pd.read_csv(ladder.with_suffix(".csv"))
        assert drawn["primary"].astype(str).str.lower().eq("true").sum() == 1, ladder.name  # one figure each
        assert ladder.stem in text


def test_a_publisher_run_setting_is_measured_at_a_place_of_its_own_and_named_in_the_report(tmp_path):
    place = "10.0.12[tiered_compilation=off]"
    # Newtonsoft.Json 2x slower than the captured cell, as fast with tiered compilation off (the publisher's)
    run = _run(
        tmp_path,
        place,
        profile="explain",
        runtimes=("10.0.12",),  # the claimed runtime alone: no build with another library version
        experiments=("007",),
        benchmarks=("stj", "newtonsoft"),
        experiments_dir=edited_experiments(tmp_path, e007=on_selftest),
        run_id="explain-settings",
    )
    rows = [json.loads(line) for line in (run / "results.jsonl").read_text().splitlines()]
    switched = [r for r in rows if r["runtime_requested"] == place]
    assert switched and all(
        r["status"] == "ok" and r["run_settings"] == {"tiered_compilation": "off"} for r in switched
    )
    report = write_report(run)
    table = pd.read_csv(report.parent / "tables" / "reproduction.csv")
    figure = table[table["primary"] & (table["benchmark"] == "newtonsoft") & (table["metric"] == "time")].iloc[0]
    assert figure["runtime"] == "10.0.12" and "run setting tiered_compilation=off: " in figure["explained_by"]
    assert "moves it" in figure["explained_by"] and "Tiered compilation" not in figure["explained_by"]
    setup = pd.read_csv(report.parent / "tables" / "setup.csv")
    tiered = setup[setup["factor"] == "Tiered compilation"].iloc[0]
    assert tiered["this_run"].startswith("on")  # this run's side is the figure's place, not the switch
