"""Single shots through the run loop on the fake backend (write-up 007, its 115 MB input swapped for the self-test
document): one fresh process per cell (never the paired design's shared process), the `shot` verb's arguments, rows
with their timed calls and resident sets, and ratios and verdicts like any steady-state cell's."""

from __future__ import annotations

import dataclasses
import json

import pytest

from harness.backends.base import CellRequest
from harness.backends.fake import FakeBackend
from harness.config.experiment.experiments import load_experiments
from harness.config.isa import load_isa_table
from harness.config.lab.labs import load_labs
from harness.model.cells import JobSettings, ShotSettings
from harness.model.errors import ConfigError
from harness.planning.plan import plan_cells
from harness.session.runner import execute_run
from tests.conftest import edited_experiments, on_selftest

SCALES = {"newtonsoft-default": 2.0, "json-string": 0.5}


def _rows(summary):
    return [json.loads(line) for line in (summary.directory / "results.jsonl").read_text().splitlines()]


def _experiments(tmp_path, smoke_options, edit=lambda text: text):
    """The experiments with 007 on the self-test document (and `edit` applied to its file)."""
    return edited_experiments(tmp_path, e007=lambda text: edit(on_selftest(text)))


def _options(smoke_options, tmp_path, **changes):
    return dataclasses.replace(
        smoke_options,
        experiments_dir=_experiments(tmp_path, smoke_options),
        experiments=("007",),
        benchmarks=("stj", "newtonsoft", "node-json-parse"),
        isa_levels=("native",),
        runtimes=("10.0.12", "24.21.0"),
        **changes,
    )


def test_each_single_shot_cell_is_its_own_process_even_in_the_paired_design(fixture_dir, smoke_options, tmp_path):
    backend = FakeBackend(fixture_dir, time_scale=SCALES)
    rows = _rows(execute_run(_options(smoke_options, tmp_path, design="paired"), backend))
    assert {r["benchmark"] for r in rows} == {"stj", "newtonsoft", "node-json-parse"}
    assert all(len(slot) == 1 for slot in backend.slots)
    assert {r["measure"] for r in rows} == {"single-shot"} and {r["design"] for r in rows} == {"interleaved"}
    assert all(r["process_cells"] is None for r in rows)
    newtonsoft = next(r for r in rows if r["benchmark"] == "newtonsoft" and r["round_index"] == 1)
    assert newtonsoft["n"] == 1 and newtonsoft["median_ns"] == pytest.approx(2e6)
    assert newtonsoft["rss_before_bytes"] == 50 << 20 and newtonsoft["peak_rss_bytes"] == 70 << 20
    assert newtonsoft["peak_rss_of"] == "timed-calls" and newtonsoft["warmup_dataset"] == "coordinates-selftest"
    assert newtonsoft["warmup_calls"] == 2 and newtonsoft["engine_version"] == "fake single-shot 1"


def test_the_shot_verb_gets_the_warm_up_and_the_calls(tmp_path, smoke_options):
    exp = load_experiments(_experiments(tmp_path, smoke_options))["007"]
    assert exp.single_shot == ShotSettings("coordinates-selftest", 2, 1)
    native = [load_isa_table().levels_for("x64")["native"]]
    cell = plan_cells([exp], native, ("stj",))[0]
    request = CellRequest(
        load_labs()["dotnet"], cell, tmp_path, tmp_path / "out", tmp_path / "log", JobSettings(), {}, "1", 60
    )
    args = request.lab_args()
    assert args[0] == "shot" and args[-6:] == [
        "--calls",
        "1",
        "--warmup-dataset",
        "coordinates-selftest",
        "--warmup-calls",
        "2",
    ]


def test_single_shot_ratios_pair_the_processes_of_each_round_into_a_verdict(fixture_dir, smoke_options, tmp_path):
    from analysis.compute.aggregate import with_ratios
    from analysis.compute.load import load_run
    from analysis.compute.replicates import summarize_cells
    from analysis.compute.verdicts.verdicts import verdict_table

    backend = FakeBackend(fixture_dir, time_scale=SCALES, process_spread=0.01)
    options = _options(smoke_options, tmp_path)
    rows = load_run(execute_run(options, backend).directory).rows
    experiment = load_experiments(options.experiments_dir)["007"]
    table = verdict_table([experiment], with_ratios(summarize_cells(rows), rows), rows)
    time = table[(table["metric"] == "time") & table["measured_ratio"].notna()].set_index("benchmark")
    newtonsoft = time.loc["newtonsoft"]
    assert newtonsoft["measured_ratio"] == pytest.approx(2.0, rel=0.05)
    assert newtonsoft["measured_ratio_lower"] < newtonsoft["measured_ratio"] < newtonsoft["measured_ratio_upper"]
    assert newtonsoft["published_ratio"] == pytest.approx(1025 / 558, abs=1e-4)


@pytest.mark.parametrize(
    "edit, message",
    [
        (
            lambda text: text.replace('measure = "single-shot"\n', ""),
            "has a [single_shot] table but measure = 'steady'",
        ),
        (
            lambda text: text.replace('warmup_dataset = "coordinates-selftest"\n', ""),
            "warmup_calls = 2 names no warmup_dataset",
        ),
        (
            lambda text: text.replace('warmup_dataset = "coordinates-selftest"', 'warmup_dataset = "canada"'),
            "has model 'CanadaCollection', benchmark stj's dataset 'coordinates-selftest' 'CoordinatesRoot'",
        ),
    ],
    ids=["table-on-steady", "warm-up-without-dataset", "warm-up-of-another-model"],
)
def test_a_single_shot_table_that_cannot_run_is_refused_before_planning(tmp_path, smoke_options, edit, message):
    from harness.config.experiment.experiment_checks import check_experiment, load_context

    def load():
        experiment = load_experiments(_experiments(tmp_path, smoke_options, edit))["007"]
        check_experiment(experiment, load_context())

    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("]", r"\]")):
        load()


def test_a_run_keeps_its_experiment_files_and_its_report_judges_those(fixture_dir, smoke_options, tmp_path):
    from analysis.render.writer import write_report

    options = _options(smoke_options, tmp_path)
    summary = execute_run(options, FakeBackend(fixture_dir, time_scale=SCALES))
    kept = summary.directory / "experiments" / "007-kostya-json-coordinates.toml"
    assert kept.read_text() == next(options.experiments_dir.glob("007-*.toml")).read_text()
    # the run's kept copy, not experiments/, is what the report judges
    kept.write_text(kept.read_text().replace("mean_ns = 1025000000.0", "mean_ns = 1116000000.0"))
    text = (write_report(summary.directory).parent / "reproduction.md").read_text()
    assert "| Json | C#/.NET Core | time | 2.00×" in text
