"""An explain run end to end on the fake backend: a figure measured on its runtime and on that runtime built with the
write-up's library version, whose ratio the switch moves, gets its 'Explained by' entry and its ladder chart."""

import pandas as pd

from analysis.render.writer import write_report
from harness.backends.fake import FakeBackend
from harness.planning.run_plan import RunOptions
from harness.session.runner import execute_run
from tests.conftest import FIXTURES

SWITCHED = "8.0.0+Newtonsoft.Json=13.0.3"  # its lock file is committed: no registry is asked


def test_a_switch_that_moves_a_ratio_is_named_in_the_report(tmp_path):
    backend = FakeBackend(
        FIXTURES / "dotnet-cell",
        # Newtonsoft.Json 2x slower than the captured cell on the lab's own build, as fast with the write-up's version
        time_scale={"newtonsoft-default": 2.0, f"newtonsoft-default@{SWITCHED}": 1.0},
        process_spread=0.01,
    )
    options = RunOptions(
        profile="default",
        runtimes=("8.0.0", SWITCHED),
        experiments=("001",),
        isa_levels=("native",),  # the fake lab knows .NET 10's switch names only
        run_id="explain-run",
        results_dir=tmp_path,
        lab_cpuset="0",
        pin_harness=False,
        calibrate=False,
    )
    run = execute_run(options, backend).directory
    report = write_report(run)
    table = pd.read_csv(report.parent / "tables" / "reproduction.csv")
    assert set(table["runtime"]) == {"8.0.0", SWITCHED}
    moved = table[table["primary"] & table["explained_by"].fillna("").str.contains("Newtonsoft.Json 13.0.3: ")]
    assert not moved.empty
    assert moved["explained_by"].str.contains(r"moves it (?:toward|away from) the published").any()
    text = report.read_text()
    assert "Explained by" in text and (report.parent / "charts" / "001-explained.png").is_file()
