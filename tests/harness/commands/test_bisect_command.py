"""`harness bisect RUN`: the figures of an explain run whose ratio a library version moved, each bisected over the
versions served between the lab's and the write-up's, every step a real run (here on the fake backend, whose
Newtonsoft.Json is twice as slow from 13.0.1 down); a run where nothing moved says so; a broken table is an error."""

from __future__ import annotations

import argparse
import csv
import json
import pathlib

import pytest

from harness.backends.fake import FakeBackend
from harness.commands.bisect import bisect_command, moved_versions
from harness.config.lab.labs import load_labs
from harness.model.errors import HarnessError
from harness.planning.run_plan import RunOptions
from harness.session.runner import execute_run
from tests.conftest import FIXTURES

SERVED = [
    "12.0.1",
    "12.0.3",
    "13.0.1",
    "13.0.3",
    "13.0.4",
]  # the lab's is 13.0.4; committed locks: 12.0.3, 13.0.1, 13.0.3
FIGURE = {
    "experiment": "001",
    "scenario": "one employee",
    "published_variant": "System.Text.Json",
    "benchmark": "single-stj-default",
    "reference": "single-newtonsoft",
    "metric": "time",
    "isa_level": "native",
}


def _explain_run(tmp_path: pathlib.Path, switched_ratio: tuple[float, float, float]) -> pathlib.Path:
    run = tmp_path / "explain-run"
    (run / "report" / "tables").mkdir(parents=True)
    rows = [
        {**FIGURE, "runtime": "8.0.0", "primary": "True", "measured_ratio_lower": 0.49, "measured_ratio_upper": 0.51},
        {
            **FIGURE,
            "runtime": "8.0.0+Newtonsoft.Json=12.0.3",
            "primary": "False",
            "measured_ratio_lower": switched_ratio[0],
            "measured_ratio_upper": switched_ratio[2],
        },
    ]
    with (run / "report" / "tables" / "reproduction.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return run


def _args(run: pathlib.Path, tmp_path: pathlib.Path, dry_run: bool = False) -> argparse.Namespace:
    return argparse.Namespace(run=run, benchmark=None, dry_run=dry_run, results_dir=tmp_path / "results")


def test_a_moved_version_is_bisected_to_the_release_that_changed_the_ratio(tmp_path, capsys):
    run = _explain_run(tmp_path, (0.24, 0.25, 0.26))
    assert [(t.package, t.here, t.published) for t in moved_versions(run, load_labs())] == [
        ("Newtonsoft.Json", "13.0.4", "12.0.3")
    ]
    slow = {f"newtonsoft-default@8.0.0+Newtonsoft.Json={v}": 2.0 for v in ("13.0.1", "12.0.3")}
    backend = FakeBackend(FIXTURES / "dotnet-cell", time_scale=slow, process_spread=0.01)
    steps = []

    def run_step(target, version, run_id):
        steps.append(version)
        options = RunOptions(
            profile="bisect",
            experiments=(target.experiment,),
            benchmarks=(target.benchmark, target.reference),
            isa_levels=(target.isa_level,),
            runtimes=(target.place(version),),
            run_id=run_id,
            results_dir=tmp_path / "results",
            lab_cpuset="0",
            pin_harness=False,
            calibrate=False,
        )
        return execute_run(options, backend).directory

    assert bisect_command(_args(run, tmp_path), run_step, served=lambda spec, package: SERVED) == 0
    assert steps == ["13.0.4", "12.0.3", "13.0.3", "13.0.1"]  # the ends, then the middles
    report = (tmp_path / "results" / "bisections" / "explain-run" / "bisection.md").read_text()
    assert "the ratio changed between Newtonsoft.Json 13.0.3 and 13.0.1" in report
    # System.Text.Json over Newtonsoft.Json: 1.0x on the lab's build (the fake replays one cell), 0.5x from 13.0.1
    lines = (tmp_path / "results" / "bisections" / "explain-run" / "readings.jsonl").read_text().splitlines()
    readings = {r["reading"]["version"]: r["reading"]["ratio"] for r in map(json.loads, lines)}
    assert readings == pytest.approx({"13.0.4": 1.0, "12.0.3": 0.5, "13.0.3": 1.0, "13.0.1": 0.5}, rel=0.01)
    assert "- 13.0.1: 0.50" in report  # each reading with its interval and run


def test_a_run_where_no_version_moved_a_ratio_has_nothing_to_bisect(tmp_path, capsys):
    run = _explain_run(tmp_path, (0.50, 0.505, 0.51))  # overlaps the figure's own interval
    assert bisect_command(_args(run, tmp_path), run_step=None) == 0
    assert "nothing to bisect" in capsys.readouterr().out


def test_a_run_without_its_report_or_with_a_foreign_table_is_an_error_with_the_fix(tmp_path):
    with pytest.raises(HarnessError, match="reproduction.csv") as missing:
        moved_versions(tmp_path, load_labs())
    assert missing.value.hint.startswith("render the run's report first: just report")
    table = tmp_path / "report" / "tables" / "reproduction.csv"
    table.parent.mkdir(parents=True)
    table.write_text("a,b\n1,2\n")
    with pytest.raises(HarnessError, match="is not a reproduction table of this lab"):
        moved_versions(tmp_path, load_labs())
