"""A figure published on an arm64 CPU (AdvSimd) and measured only on x64 here is "cannot reproduce: not on this host",
its ratio kept and said to be an x64 reading; a figure of an x64 CPU is judged as before (fake backend: x64 rows)."""

import pandas as pd

from analysis.render.writer import write_report
from harness.backends.fake import FakeBackend
from harness.planning.run_plan import RunOptions
from harness.session.runner import execute_run
from tests.conftest import FIXTURES, edited_experiments


def _run(tmp_path, experiments_dir):
    backend = FakeBackend(FIXTURES / "dotnet-cell", time_scale={"newtonsoft-default": 2.0}, process_spread=0.01)
    options = RunOptions(
        profile="default",
        runtimes=("8.0.0",),
        experiments=("001",),
        isa_levels=("native",),
        experiments_dir=experiments_dir,
        results_dir=tmp_path,
        lab_cpuset="0",
        pin_harness=False,
        calibrate=False,
    )
    report = write_report(execute_run(options, backend).directory)
    return pd.read_csv(report.parent / "tables" / "reproduction.csv")


def test_an_arm64_figure_measured_on_x64_is_not_judged_and_says_why(tmp_path):
    arm = edited_experiments(
        tmp_path / "arm", e001=lambda t: t.replace('microarchitecture = "skylake"', 'microarchitecture = "apple-m1"')
    )
    table = _run(tmp_path / "arm", arm)
    figures = table[table["primary"] & table["metric"].eq("time") & table["measured_ratio"].notna()]
    assert not figures.empty
    assert (
        figures["verdict"]
        .str.startswith("cannot reproduce: not on this host, an arm64 figure (Apple M1) measured here on x64 only")
        .all()
    )
    x64 = _run(tmp_path / "x64", edited_experiments(tmp_path / "x64"))
    assert not x64["verdict"].str.contains("not on this host").any()
