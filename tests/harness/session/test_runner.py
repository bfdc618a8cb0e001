"""The run loop end to end on the fake backend: rows, failures, resume, ISA checks, bad input."""

import dataclasses
import json
import os
import shutil

import pytest

from harness.backends.fake import FakeBackend
from harness.model.defaults import DATASETS_DIR, LABS_DIR
from harness.model.errors import DatasetError, MissingToolError, ResumeError, UnknownNameError
from harness.model.folder.store import RunStore
from harness.model.stats.interference import REPLACEMENTS_PER_CELL
from harness.session.runner import execute_run


def _rows(summary):
    return [json.loads(line) for line in (summary.directory / "results.jsonl").read_text().splitlines()]


def test_a_smoke_run_stores_one_row_per_cell_and_round_with_verification_and_effective_isa(fake_backend, smoke_options):
    summary = execute_run(smoke_options, fake_backend)
    rows = {(r["cell_id"], r["round_index"]): r for r in _rows(summary)}
    assert len(rows) == 20  # 10 cells × 2 rounds
    assert summary.counts == {"ok": 12, "unverified": 8}
    camel = rows[("000:SystemTextCaseSensitive_Camel@scalar/10.0.12", 2)]
    assert camel["status"] == "unverified" and camel["verification_status"] == "failed"
    assert camel["isa_effective"] == "scalar" and camel["isa_switches"] == {"DOTNET_EnableHWIntrinsic": "0"}
    assert rows[("000:NewtonSoftJson_Camel@native/10.0.12", 1)]["isa_effective"] == "avx512"
    assert rows[("000:NewtonSoftJson_Camel@native/10.0.12", 1)]["raw_path"].startswith(
        "raw/000__NewtonSoftJson_Camel__native__10.0.12/round-1/bdn/"
    )
    env = json.loads((summary.directory / "environment.json").read_text())
    assert env["labs"]["dotnet@10.0.12"]["isa_levels"]["scalar"]["state"] == "run"
    assert (summary.directory.parent / "latest").resolve() == summary.directory
    kept = summary.directory / "labs" / "dotnet"  # the lab's words as the run had them, for its report
    for name in ("lab.toml", "catalog.toml"):
        assert (kept / name).read_bytes() == (smoke_options.labs_dir / "dotnet" / name).read_bytes()


def test_a_failing_cell_is_recorded_and_the_run_goes_on(fixture_dir, smoke_options):
    backend = FakeBackend(fixture_dir, failing_cells=frozenset({"000:NewtonSoftJson_Camel@native/10.0.12"}))
    summary = execute_run(smoke_options, backend)
    rows = {(r["cell_id"], r["round_index"]): r for r in _rows(summary)}
    failed = rows[("000:NewtonSoftJson_Camel@native/10.0.12", 1)]
    assert failed["status"] == "failed" and "simulated failure" in failed["error"]
    assert len(backend.cells_run) == 19  # the failed cell is not retried in this session's later rounds
    assert ("000:NewtonSoftJson_Camel@native/10.0.12", 2) not in rows and (
        "000:NewtonSoftJson_Camel@scalar/10.0.12",
        2,
    ) in rows


def test_resume_skips_finished_cells_and_retries_failed_ones(fixture_dir, smoke_options):
    first = execute_run(
        smoke_options, FakeBackend(fixture_dir, failing_cells=frozenset({"001:single-newtonsoft@scalar/10.0.12"}))
    )
    second_backend = FakeBackend(fixture_dir)
    second = execute_run(dataclasses.replace(smoke_options, resume=True), second_backend)
    assert second.directory == first.directory
    assert second_backend.cells_run == [
        "001:single-newtonsoft@scalar/10.0.12",
        "001:single-newtonsoft@scalar/10.0.12",
    ]  # both rounds
    assert second.counts.get("failed") is None
    assert any(p.name.startswith("environment.resumed-") for p in second.directory.iterdir())


def test_a_run_killed_mid_write_resumes_setting_its_torn_line_aside_and_measuring_that_process_again(
    fixture_dir, smoke_options
):
    first = execute_run(smoke_options, FakeBackend(fixture_dir))
    results = first.directory / "results.jsonl"
    lines = results.read_bytes().splitlines(keepends=True)
    torn = lines[-1][: len(lines[-1]) // 2]  # the last row, cut mid-write
    results.write_bytes(b"".join(lines[:-1]) + torn)
    last = json.loads(lines[-1])
    again = FakeBackend(fixture_dir)
    second = execute_run(dataclasses.replace(smoke_options, resume=True), again)
    assert again.cells_run == [last["cell_id"]], "only the process whose row was torn is measured again"
    assert (second.directory / "results.quarantine.jsonl").read_bytes() == torn + b"\n"
    assert len(results.read_bytes().splitlines()) == len(lines)


def test_resume_with_another_selection_is_refused(fake_backend, smoke_options):
    execute_run(smoke_options, fake_backend)
    with pytest.raises(ResumeError, match="started with profile 'smoke'"):
        execute_run(dataclasses.replace(smoke_options, resume=True, isa_levels=("native",)), fake_backend)


def test_a_switch_that_does_not_take_effect_fails_its_cells_with_the_reason(fixture_dir, smoke_options):
    backend = FakeBackend(fixture_dir, ignored_switches=frozenset({"DOTNET_EnableHWIntrinsic"}))
    summary = execute_run(smoke_options, backend)
    scalar = [r for r in _rows(summary) if r["isa_requested"] == "scalar"]
    assert scalar and all(r["status"] == "failed" for r in scalar)
    assert "did not take effect" in scalar[0]["error"] and "sse2=True (expected False)" in scalar[0]["error"]
    assert not any(c.endswith("@scalar/10.0.12") for c in backend.cells_run)  # never timed


def test_a_level_identical_to_native_is_reported_not_rerun(fixture_dir, smoke_options):
    no_avx512_cpu = {**json.loads((fixture_dir / "env.json").read_text())["isa"], "avx512f": False, "vector512": False}
    backend = FakeBackend(fixture_dir, native_flags=no_avx512_cpu)
    summary = execute_run(dataclasses.replace(smoke_options, isa_levels=("native", "no-avx512")), backend)
    skipped = [r for r in _rows(summary) if r["isa_requested"] == "no-avx512"]
    assert skipped and all(r["status"] == "skipped" for r in skipped)
    assert "identical to native" in skipped[0]["error"]
    assert not any(c.endswith("@no-avx512/10.0.12") for c in backend.cells_run)


def test_a_level_identical_to_native_is_measured_when_the_run_does_not_measure_native(fixture_dir, smoke_options):
    # A figure published on a CPU without AVX-512 asks for no-avx512; on a CPU (or runtime) without AVX-512 that is
    # native.
    no_avx512_cpu = {**json.loads((fixture_dir / "env.json").read_text())["isa"], "avx512f": False, "vector512": False}
    backend = FakeBackend(fixture_dir, native_flags=no_avx512_cpu)
    summary = execute_run(dataclasses.replace(smoke_options, isa_levels=("no-avx512",)), backend)
    rows = _rows(summary)
    assert rows and {r["status"] for r in rows} <= {"ok", "unverified"}
    assert {r["isa_requested"] for r in rows} == {"no-avx512"} and {r["isa_effective"] for r in rows} == {"avx2"}
    assert all(c.endswith("@no-avx512/10.0.12") for c in backend.cells_run)


def test_an_unknown_variant_in_an_experiment_lists_the_labs_variants(tmp_path, fixture_dir, smoke_options):
    experiments = tmp_path / "experiments"
    shutil.copytree(smoke_options.experiments_dir, experiments)
    path = experiments / "001-stj-vs-newtonsoft-employees.toml"
    path.write_text(
        path.read_text().replace(
            'variant = "stj-default"\ndataset = "employee-single"',
            'variant = "stj-defualt"\ndataset = "employee-single"',
        )
    )
    with pytest.raises(UnknownNameError, match="unknown variant 'stj-defualt'.*did you mean 'stj-default'") as error:
        execute_run(dataclasses.replace(smoke_options, experiments_dir=experiments), FakeBackend(fixture_dir))
    assert "newtonsoft-default" in error.value.hint


def test_a_tampered_dataset_stops_the_run_before_anything_is_written(tmp_path, fake_backend, smoke_options):
    datasets = tmp_path / "datasets"
    shutil.copytree(DATASETS_DIR, datasets, ignore=shutil.ignore_patterns("corpus"))
    (datasets / "writeups" / "employee-single.json").write_text("{}")
    with pytest.raises(DatasetError, match="employee-single"):
        execute_run(dataclasses.replace(smoke_options, datasets_dir=datasets), fake_backend)
    assert not smoke_options.results_dir.exists()


def test_a_lab_whose_runtime_is_missing_is_refused_with_the_program_name(tmp_path, fake_backend, smoke_options):
    labs = tmp_path / "lab"
    shutil.copytree(
        LABS_DIR / "dotnet",
        labs / "dotnet",
        ignore=shutil.ignore_patterns("bin", "obj", "tests", "build", ".nuget-seed"),
    )
    toml = labs / "dotnet" / "lab.toml"
    toml.write_text(toml.read_text().replace('requires = ["dotnet"]', 'requires = ["dotnet-not-installed-here"]'))
    with pytest.raises(MissingToolError, match="needs 'dotnet-not-installed-here'"):
        execute_run(dataclasses.replace(smoke_options, labs_dir=labs), fake_backend)


def test_sequential_rounds_repeat_every_cell_of_a_level_in_plan_order(fake_backend, smoke_options):
    execute_run(dataclasses.replace(smoke_options, design="sequential"), fake_backend)
    native = [c for c in fake_backend.cells_run if c.endswith("@native/10.0.12")]
    assert native[:5] == native[5:10]  # round 2 repeats round 1's order after all of round 1
    assert fake_backend.cells_run[:10] == native  # and a level finishes before the next starts


def test_interleaved_rounds_finish_one_group_before_the_next_in_a_fresh_order_each_round(fixture_dir, smoke_options):
    backend = FakeBackend(fixture_dir)
    execute_run(
        dataclasses.replace(
            smoke_options,
            experiments=("000",),
            isa_levels=("native",),
            benchmarks=(
                "SystemTextCaseSensitive_Camel",
                "SystemTextCaseInsensitive_Camel",
                "SystemTextCaseSensitive_Pascal",
            ),
        ),
        backend,
    )
    cells = backend.cells_run
    group_size = len(set(cells))
    rounds = [cells[i : i + group_size] for i in range(0, len(cells), group_size)]
    assert len(rounds) == 2 and all(sorted(r) == sorted(rounds[0]) for r in rounds)  # each round: every cell once


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="a duet needs two CPUs this process may use")
def test_duet_runs_each_benchmark_beside_the_baseline_and_swaps_cpus_every_round(fixture_dir, smoke_options):
    backend = FakeBackend(fixture_dir)
    summary = execute_run(
        dataclasses.replace(smoke_options, design="duet", lab_cpuset="0,1", isa_levels=("native",)), backend
    )
    assert all(len(slot) == 2 and slot[1].startswith("000:NewtonSoftJson_Camel") for slot in backend.slots[:4])
    rows = _rows(summary)
    camel = {r["round_index"]: r for r in rows if r["benchmark"] == "SystemTextCaseInsensitive_Camel"}
    assert camel[1]["partner"] == "NewtonSoftJson_Camel" and camel[1]["cpuset"] != camel[2]["cpuset"]
    baseline = [r for r in rows if r["benchmark"] == "NewtonSoftJson_Camel"]
    assert {r["partner"] for r in baseline} == {"SystemTextCaseInsensitive_Camel", "SystemTextCaseSensitive_Camel"}
    assert len(baseline) == 4  # one baseline process beside each benchmark, each round


def _single_group_run(smoke_options, tmp_path, stopping: str, spread: float):
    """One group (001/single at native, one ratio) with the smoke profile's stopping rule replaced."""
    profiles = tmp_path / "profiles.toml"
    profiles.write_text(
        smoke_options.profiles_file.read_text().replace("stopping = { min_rounds = 2, max_rounds = 2 }", stopping, 1)
    )
    backend = FakeBackend(
        smoke_options.datasets_dir.parent / "tests" / "fixtures" / "dotnet-cell",
        time_scale={"newtonsoft-default": 2.0},
        process_spread=spread,
    )
    return execute_run(
        dataclasses.replace(
            smoke_options,
            profiles_file=profiles,
            experiments=("001",),
            isa_levels=("native",),
            benchmarks=("single-stj-case-insensitive",),
        ),
        backend,
    )


def test_adaptive_stopping_adds_rounds_until_the_ratio_interval_is_narrow_enough(smoke_options, tmp_path):
    summary = _single_group_run(
        smoke_options, tmp_path, "stopping = { min_rounds = 3, max_rounds = 30, target_rel_ci = 0.02 }", 0.02
    )
    rounds = max(r["round_index"] for r in _rows(summary))
    assert 3 < rounds < 30  # more than the minimum, fewer than the cap
    from harness.model.folder.records import ResultRow
    from harness.session.rounds.stopping import rows_precision

    worst, comparable = rows_precision([ResultRow.from_dict(r) for r in _rows(summary)])
    assert comparable == 1 and worst <= 0.02


def test_a_group_that_cannot_reach_the_target_stops_at_its_cap_and_says_so(smoke_options, tmp_path, capsys):
    summary = _single_group_run(
        smoke_options, tmp_path, "stopping = { min_rounds = 2, max_rounds = 5, target_rel_ci = 0.001 }", 0.2
    )
    assert max(r["round_index"] for r in _rows(summary)) == 5
    assert "group 001/single@native on 10.0.12: imprecise after 5 round(s)" in capsys.readouterr().err


def test_a_per_cell_time_cap_stops_a_group_after_its_cells_have_used_it(smoke_options, tmp_path):
    # Fake processes take 2 s each; 2 cells × 5 s allows 3 rounds (the cap is checked after each round).
    summary = _single_group_run(
        smoke_options,
        tmp_path,
        "stopping = { min_rounds = 2, max_rounds = 40, target_rel_ci = 0.001, cell_time_cap_s = 5 }",
        0.2,
    )
    assert max(r["round_index"] for r in _rows(summary)) == 3


def test_calibration_is_timed_before_each_level_and_at_the_end(fake_backend, smoke_options):
    summary = execute_run(dataclasses.replace(smoke_options, calibrate=True), fake_backend)
    lines = [json.loads(line) for line in (summary.directory / "calibration.jsonl").read_text().splitlines()]
    assert [(c["label"], c["workload"]) for c in lines] == [
        (label, w) for label in ("before native", "before scalar", "end") for w in ("sha256", "memory")
    ]
    assert all(c["median_ms"] > 0 for c in lines)


def test_each_row_records_what_else_its_cpu_did(fixture_dir, smoke_options):
    backend = FakeBackend(fixture_dir, interference_ms={"001:single-newtonsoft@native/10.0.12": 1500.0})
    rows = _rows(execute_run(smoke_options, backend))
    disturbed = [r for r in rows if r["cell_id"] == "001:single-newtonsoft@native/10.0.12"]
    assert all(r["cpu_other_ms"] == 1500.0 and r["involuntary_context_switches"] == 3 for r in disturbed)


CELL = "001:single-newtonsoft@native/10.0.12"


def test_a_disturbed_process_is_kept_set_aside_and_a_fresh_one_measures_its_round(fixture_dir, smoke_options):
    # the cell's first process has 1.5 s of other work on its CPU (75% of its 2 s), its later ones none
    backend = FakeBackend(fixture_dir, interference_ms={CELL: [1500.0, 0.0]})
    summary = execute_run(smoke_options, backend)
    rows = [r for r in _rows(summary) if r["cell_id"] == CELL]
    aside = [r for r in rows if r["status"] == "disturbed"]
    assert [(r["round_index"], r["replaced"]) for r in aside] == [(1, 1)]
    assert aside[0]["error"].startswith("disturbed: 75% of its CPU time went elsewhere; replaced by a fresh process")
    stands = RunStore(summary.directory).rows()[f"{CELL}#1"]
    assert stands.status == "ok" and stands.cpu_other_ms == 0.0
    assert stands.raw_path != aside[0]["raw_path"] and "attempt-2" in stands.raw_path, "the disturbed raw data stays"
    assert backend.cells_run.count(CELL) == 3  # round 1, its replacement, round 2
    assert summary.counts["replaced"] == 1


def test_a_cell_that_stays_disturbed_ends_disturbed_after_its_replacements_never_averaged_in(
    fixture_dir, smoke_options
):
    backend = FakeBackend(fixture_dir, interference_ms={CELL: 1500.0})
    summary = execute_run(smoke_options, backend)
    current = RunStore(summary.directory).rows()
    assert [current[f"{CELL}#{k}"].status for k in (1, 2)] == ["disturbed", "disturbed"]
    assert f"after {REPLACEMENTS_PER_CELL} replacement(s)" in current[f"{CELL}#2"].error
    aside = [r for r in _rows(summary) if r["cell_id"] == CELL and r["replaced"]]
    assert len(aside) == REPLACEMENTS_PER_CELL  # then the cap: no process is replaced forever
    assert summary.counts["disturbed"] == 2 and summary.counts["replaced"] == REPLACEMENTS_PER_CELL


def test_a_benchmark_whose_library_has_no_package_is_an_unavailable_row_and_never_a_process(
    fixture_dir, smoke_options, tmp_path
):
    experiments = tmp_path / "experiments"
    shutil.copytree(smoke_options.experiments_dir, experiments)
    toml = experiments / "001-stj-vs-newtonsoft-employees.toml"
    toml.write_text(
        toml.read_text().replace(
            "[hardware.H001]",
            """[[benchmarks]]
id = "single-missing-lib"
group = "single"
variant = "no-such-variant"
dataset = "employee-single"
unavailable = "no package for MissingLib 1.0 on this feed"

[hardware.H001]""",
        )
    )
    backend = FakeBackend(fixture_dir)
    options = dataclasses.replace(
        smoke_options,
        experiments_dir=experiments,
        experiments=("001",),
        benchmarks=("single-missing-lib",),
        isa_levels=("native",),
    )
    summary = execute_run(options, backend)
    rows = {r["benchmark"]: r for r in _rows(summary)}
    missing = rows["single-missing-lib"]
    assert (
        missing["status"] == "skipped" and missing["error"] == "unavailable: no package for MissingLib 1.0 on this feed"
    )
    assert not any("single-missing-lib" in c for c in backend.cells_run)
    assert rows["single-newtonsoft"]["status"] == "ok"  # its baseline still ran

    import pandas as pd

    from analysis.formatting.tables import status_text

    assert status_text(pd.Series(missing)) == "unavailable: no package for MissingLib 1.0 on this feed"


def test_raw_output_the_normalizer_cannot_read_fails_that_cell_and_the_run_goes_on(
    fake_backend, smoke_options, monkeypatch
):
    from harness.session.processes import cell_rows as scheduler

    real = scheduler.NORMALIZERS["bdn"]

    def picky(folder):
        if "NewtonSoftJson_Camel__native" in str(folder):
            raise ValueError("Statistics.mean_ns = 0: must be positive")
        return real(folder)

    monkeypatch.setitem(scheduler.NORMALIZERS, "bdn", picky)
    summary = execute_run(smoke_options, fake_backend)
    rows = {(r["cell_id"], r["round_index"]): r for r in _rows(summary)}
    failed = rows[("000:NewtonSoftJson_Camel@native/10.0.12", 1)]
    assert (
        failed["status"] == "failed"
        and "could not be normalized: ValueError: Statistics.mean_ns = 0" in failed["error"]
    )
    assert rows[("000:NewtonSoftJson_Camel@scalar/10.0.12", 2)]["status"] == "ok"


def _cold_options(smoke_options, **changes):
    return dataclasses.replace(
        smoke_options, experiments=("005",), benchmarks=("cold-ser-stj-sourcegen",), isa_levels=("native",), **changes
    )


def test_cold_start_cells_are_verified_then_timed_as_whole_processes_one_row_each(fixture_dir, smoke_options):
    backend = FakeBackend(fixture_dir, time_scale={"stj-sourcegen-camel-utf8": 0.5})
    summary = execute_run(_cold_options(smoke_options), backend)
    rows = {r["benchmark"]: r for r in _rows(summary)}
    assert set(rows) == {"cold-ser-stj", "cold-ser-stj-sourcegen"}  # the group's baseline comes along
    cold = rows["cold-ser-stj-sourcegen"]
    assert (
        cold["measure"] == "cold" and cold["status"] == "ok" and cold["design"] == "cold" and cold["round_count"] == 1
    )
    assert cold["n"] == 3  # the smoke profile's cold runs: each run a process, so the interval is over processes
    assert cold["median_ns"] == pytest.approx(30e6, rel=0.03) and cold["prepare_median_ns"] == pytest.approx(
        22.5e6, rel=0.03
    )
    assert cold["ci99_lower_ns"] < cold["mean_ns"] < cold["ci99_upper_ns"]
    assert cold["peak_rss_bytes"] == 40 << 20 and cold["engine_version"] == "hyperfine"
    assert cold["raw_path"].endswith("hyperfine.json") and cold["library"]
    assert ("verify", {}) in backend.calls  # verified before it was timed
    assert backend.cells_run == ["005:cold-ser-stj@native/10.0.12", "005:cold-ser-stj-sourcegen@native/10.0.12"]


def test_a_cold_cell_that_fails_is_a_failed_row_and_a_resume_retries_only_it(fixture_dir, smoke_options):
    failing = "005:cold-ser-stj-sourcegen@native/10.0.12"
    first = execute_run(_cold_options(smoke_options), FakeBackend(fixture_dir, failing_cells=frozenset({failing})))
    assert {r["cell_id"]: r["status"] for r in _rows(first)} == {
        "005:cold-ser-stj@native/10.0.12": "ok",
        failing: "failed",
    }
    again = FakeBackend(fixture_dir)
    execute_run(_cold_options(smoke_options, resume=True), again)
    assert again.cells_run == [failing]


def test_a_generated_dataset_a_run_needs_is_built_before_anything_is_measured(
    tmp_path, fake_backend, smoke_options, capsys
):
    datasets = tmp_path / "datasets"
    shutil.copytree(DATASETS_DIR, datasets, ignore=shutil.ignore_patterns("corpus", "generated"))
    (datasets / "generators" / "copy.py").write_text(
        "import argparse, pathlib, shutil\np = argparse.ArgumentParser()\n"
        "for a in ('--seed', '--source', '--out'): p.add_argument(a)\n"
        "a = p.parse_args(); shutil.copy(a.source, a.out)\n"
    )
    manifest = json.loads((datasets / "manifest.json").read_text())
    entry = next(d for d in manifest["datasets"] if d["name"] == "employee-single")
    source = datasets / entry["path"]
    entry["path"] = "generated/employee-single.json"
    entry["generator"] = {"script": "generators/copy.py", "seed": 1, "args": ["--source", str(source)]}
    (datasets / "manifest.json").write_text(json.dumps(manifest))
    summary = execute_run(dataclasses.replace(smoke_options, datasets_dir=datasets), fake_backend)
    assert (datasets / "generated" / "employee-single.json").read_bytes() == source.read_bytes()
    said = capsys.readouterr().err
    assert "dataset employee-single: generating" in said and "matches the manifest" in said
    assert said.index("dataset employee-single: generating") < said.index("round 1"), "built before any process"
    assert summary.counts.get("ok")
