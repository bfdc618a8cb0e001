"""Run settings through the run loop on the fake backend: the environment reaches the cell's processes (and only
theirs), every row says what was asked and read back, and a setting the process did not take fails its cell."""

from __future__ import annotations

import dataclasses
import json

from harness.backends.fake import FakeBackend
from harness.session.runner import execute_run
from tests.conftest import after_lab_line, edited_experiments


def _rows(summary):
    return [json.loads(line) for line in (summary.directory / "results.jsonl").read_text().splitlines()]


def _options(smoke_options, tmp_path, **changes):
    """The smoke run with experiment 001 asking for tiered compilation off and Server GC."""
    experiments = edited_experiments(
        tmp_path, e001=after_lab_line('run_settings = { tiered_compilation = "off", gc = "server" }\n')
    )
    return dataclasses.replace(smoke_options, experiments_dir=experiments, isa_levels=("native",), **changes)


def test_settings_reach_their_cells_processes_only_and_every_row_names_them_and_their_readback(
    fixture_dir, smoke_options, tmp_path
):
    backend = FakeBackend(fixture_dir)
    rows = _rows(execute_run(_options(smoke_options, tmp_path), backend))
    with_settings = [r for r in rows if r["experiment"] == "001"]
    assert with_settings and all(r["status"] in ("ok", "unverified") for r in with_settings)
    for row in with_settings:
        assert row["cell_id"].endswith("@native/10.0.12[gc=server,tiered_compilation=off]")
        assert row["run_settings"] == {"gc": "server", "tiered_compilation": "off"}
        assert row["run_settings_readback"] == {"gc_server": True, "tiered_compilation": False}
        assert row["run_settings_checked"] == "read back"
    others = [r for r in rows if r["experiment"] == "000"]
    assert others and all(r["run_settings"] == {} and "[" not in r["cell_id"] for r in others)
    assert all(r["run_settings_checked"] is None for r in others)


def test_the_paired_design_gives_a_groups_process_its_settings(fixture_dir, smoke_options, tmp_path):
    rows = _rows(execute_run(_options(smoke_options, tmp_path, design="paired"), FakeBackend(fixture_dir)))
    paired = [r for r in rows if r["experiment"] == "001"]
    assert paired and {r["design"] for r in paired} == {"paired"}
    assert all(r["run_settings_readback"] == {"gc_server": True, "tiered_compilation": False} for r in paired)
    assert all(r["status"] in ("ok", "unverified") for r in paired)


def test_a_setting_the_process_did_not_take_fails_its_cells_with_the_readback(fixture_dir, smoke_options, tmp_path):
    backend = FakeBackend(fixture_dir, ignored_switches=frozenset({"DOTNET_TieredCompilation"}))
    rows = _rows(execute_run(_options(smoke_options, tmp_path), backend))
    failed = [r for r in rows if r["experiment"] == "001"]
    assert failed and all(r["status"] == "failed" for r in failed)
    assert failed[0]["error"] == (
        "run settings did not take effect in the measured process: "
        "tiered_compilation=off (tiered_compilation is true, expected false)"
    )
    assert all(r["status"] in ("ok", "unverified") for r in rows if r["experiment"] == "000")


def test_a_cold_cell_with_settings_is_read_back_in_a_process_with_its_environment(fixture_dir, smoke_options, tmp_path):
    experiments = edited_experiments(tmp_path, e005=after_lab_line('run_settings = { gc = "server" }\n'))
    backend = FakeBackend(fixture_dir)
    options = dataclasses.replace(
        smoke_options,
        experiments_dir=experiments,
        experiments=("005",),
        benchmarks=("cold-ser-stj-sourcegen",),
        isa_levels=("native",),
    )
    rows = _rows(execute_run(options, backend))
    assert rows and all(r["status"] == "ok" and r["run_settings_readback"]["gc_server"] is True for r in rows)
    assert ("env", {"DOTNET_gcServer": "1", "COMPlus_gcServer": "1"}) in backend.calls
