"""One end-to-end run of the real pipeline: harness CLI → real labs (built here) → conformance suite → analysis report.

Uses the smoke profile (two ISA levels, a few cells, two rounds of paired processes, a very short job); numbers are not
checked,
only that every stage produced what the next one needs.
"""

import functools
import json
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from tests.e2e.run_rows import read_rows, undisturbed

REPO = pathlib.Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    shutil.which("dotnet") is None, reason="dotnet SDK not installed: the real lab cannot run"
)


@pytest.fixture(scope="module")
def smoke_run(tmp_path_factory):
    results = tmp_path_factory.mktemp("results")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "harness",
            "run",
            "--profile",
            "smoke",
            "--backend",
            "host",
            "--results-dir",
            str(results),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    run_dir = pathlib.Path(done.stdout.strip().splitlines()[-1])
    conformance = subprocess.run(
        [sys.executable, "-m", "harness", "conformance", str(run_dir), "--backend", "host"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert conformance.returncode == 0, conformance.stderr
    report = subprocess.run(
        [sys.executable, "-m", "analysis", "report", str(run_dir)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert report.returncode == 0, report.stderr
    return run_dir


def _rows(run_dir):
    """The run's rows the machine did not disturb (tests/e2e/run_rows.py): noise here is not a failure."""
    return undisturbed(read_rows(run_dir))


def test_every_cell_row_carries_verification_status_and_the_effective_isa(smoke_run):
    all_rows = [
        r for r in _rows(smoke_run) if r["measure"] == "steady" and r["lab"] == "dotnet" and r["experiment"] != "006"
    ]
    # Three runtimes (3.1.3, 8.0.0 and 10.0.12), each read back in-process. Jil 3.0.0-alpha2 cannot deserialize on .NET
    # 9+:
    # its cell fails once per level on 10.0.12 only (a failed cell is not retried), and runs on 3.1.3 and 8.0.0.
    assert {(r["runtime_requested"], r["runtime_version"]) for r in all_rows if r["runtime_version"]} == {
        ("3.1.3", "3.1.3"),
        ("8.0.0", "8.0.0"),
        ("10.0.12", "10.0.12"),
    }
    failed = [r for r in all_rows if r["status"] == "failed"]
    rows = [r for r in all_rows if r["status"] != "failed"]
    copies = [r for r in rows if r["benchmark"].endswith("~aa")]
    # 9 benchmarks × 2 levels × 3 runtimes, 2 rounds each, minus Jil on 10; plus an A/A copy of the baseline in each of
    # the four groups (000's myclass, 001's single, 004's ser-bytes-1 and deser-string-1) at each level and runtime
    assert len(rows) - len(copies) == 2 * (18 + 18 + 16) and len(copies) == 2 * 2 * 3 * 4
    # Every group ran in one paired process per round, its members in alternating bursts; Jil's member failed alone.
    paired = [r for r in rows if r["design"] == "paired"]
    assert paired == rows and {r["process_cells"] for r in paired} == {2, 3, 4}  # Jil, broken on 10, leaves its process
    assert all(len(r["burst_ns"]) == 4 and r["bursts_ms"] > 0 for r in paired)
    assert {(r["benchmark"], r["isa_requested"], r["runtime_requested"]) for r in failed} == {
        ("deser-string-1-jil", "native", "10.0.12"),
        ("deser-string-1-jil", "scalar", "10.0.12"),
    }
    assert all(r["error"].startswith("Jil 3.0.0-alpha2 cannot deserialize ICollection<SimpleModel>: ") for r in failed)
    assert {r["isa_requested"] for r in rows} == {"native", "scalar"}
    assert {r["round_index"] for r in rows} == {1, 2}
    for row in rows:
        assert row["status"] in ("ok", "unverified"), row
        assert row["verification_status"] in ("passed", "failed")
        assert row["mean_ns"] > 0 and row["allocated_bytes_per_op"] is not None
        assert (smoke_run / row["raw_path"]).is_file() and (smoke_run / row["log_path"]).is_file()
    scalar = [r for r in rows if r["isa_requested"] == "scalar"]
    assert all(r["isa_effective"] == "scalar" and r["isa_flags"]["sse2"] is False for r in scalar)
    # .NET Core 3.1 cannot say whether Vector128 is accelerated (no API): the flag is absent there, not false.
    assert all(r["isa_flags"]["vector128"] is False for r in scalar if r["runtime_requested"] != "3.1.3")
    assert all("vector128" not in r["isa_flags"] for r in rows if r["runtime_requested"] == "3.1.3")
    # Each row names its measuring engine and the runtime variables its process saw: the lab's paired engine here (a
    # group
    # of one cell, 006's typed canada read, runs alone under BenchmarkDotNet); on 3.1 the switches take the COMPlus_
    # prefix,
    # with invariant globalization (no ICU it knows on Debian 12).
    assert {r["engine_version"] for r in paired} == {"jsonlab paired bursts 1"}
    alone = [r for r in _rows(smoke_run) if r["benchmark"] == "dotnet-deserialize-stj-canada" and r["status"] == "ok"]
    assert alone and {(r["design"], r["engine_version"]) for r in alone} == {("interleaved", "BenchmarkDotNet 0.15.8")}
    legacy = [r for r in rows if r["runtime_requested"] == "3.1.3"]
    assert all(r["runtime_switches"]["DOTNET_SYSTEM_GLOBALIZATION_INVARIANT"] == "1" for r in legacy)
    assert all(
        r["runtime_switches"]["COMPlus_EnableHWIntrinsic"] == "0" for r in legacy if r["isa_requested"] == "scalar"
    )
    native = [r for r in rows if r["isa_requested"] == "native"]
    assert all(r["isa_effective"] != "scalar" for r in native)
    # The write-ups' case-sensitive camelCase benchmarks bind nothing: the real lab must say so.
    unverified = {r["benchmark"] for r in rows if r["status"] == "unverified"}
    assert unverified == {"SystemTextCaseSensitive_Camel", "single-stj-default"}
    report = (smoke_run / "report" / "report.md").read_text()
    assert "| paired |" in report and "A/A ratios contain 1" in report


def test_the_node_lab_runs_through_the_same_pipeline_with_its_isa_labelled_unverifiable(smoke_run):
    rows = [r for r in _rows(smoke_run) if r["lab"] == "reference-node"]
    native = [r for r in rows if r["isa_requested"] == "native"]
    assert sorted(r["benchmark"] for r in native) == [
        "parse-string-canada",
        "parse-string-canada",
        "parse-utf8-canada",
        "parse-utf8-canada",
    ]
    for row in native:
        assert row["status"] == "ok" and row["verification_status"] == "passed", row
        assert (
            row["runtime"] == "Node.js"
            and row["runtime_version"] == "24.21.0"
            and row["engine_version"] == "mitata 1.0.34"
        )
        assert row["isa_effective"] == "unverifiable" and row["cpuset_effective"] == row["cpuset"]
        assert row["mean_ns"] > 0 and row["n"] == 3 and (smoke_run / row["raw_path"]).is_file()
    # V8 has no switch that turns its SIMD off: the level is reported as not applicable, never run as native.
    scalar = [r for r in rows if r["isa_requested"] == "scalar"]
    assert scalar and all(
        r["status"] == "skipped" and "has no switch for ISA level 'scalar'" in r["error"] for r in scalar
    )
    report = (smoke_run / "report" / "report.md").read_text()
    assert "| reference-node@24.21.0 | scalar |" in report and "not-applicable" in report


def test_the_cpp_lab_runs_through_the_same_pipeline_with_simdjson_s_kernel_read_back(smoke_run):
    rows = [r for r in _rows(smoke_run) if r["lab"] == "cpp"]
    native = [r for r in rows if r["isa_requested"] == "native"]
    assert sorted(r["variant"] for r in native) == ["rapidjson", "rapidjson", "simdjson-dom", "simdjson-dom"]
    for row in native:
        assert row["status"] == "ok" and row["verification_status"] == "passed", row
        assert row["runtime"] == "GCC" and row["runtime_version"] == "12.2.0", row
        assert row["engine_version"].startswith("Google Benchmark 1."), row
        assert row["payload_bytes"] == 2_251_051 and row["allocated_bytes_per_op"] is None
        assert row["mean_ns"] > 0 and row["n"] == 3 and (smoke_run / row["raw_path"]).is_file()
    # The scalar level is simdjson's fallback kernel, selected by the lab and read back: run, not skipped.
    scalar = [r for r in rows if r["isa_requested"] == "scalar"]
    assert scalar and all(r["status"] == "ok" and r["isa_effective"] == "scalar" for r in scalar), scalar
    report = (smoke_run / "report" / "report.md").read_text()
    assert (
        "| cpp@gcc-12.2.0 | scalar | `JSONLAB_RAPIDJSON_SIMD=none`, `SIMDJSON_FORCE_IMPLEMENTATION=fallback` | "
        "scalar | run |" in report
    )
    # RapidJSON follows the level: its scalar cells ran the kernel without SIMD, read back into cell.json
    rapidjson = [r for r in scalar if r["variant"] == "rapidjson"]
    assert rapidjson and all(
        json.loads((smoke_run / r["raw_path"]).parent.joinpath("cell.json").read_text())["rapidjson_simd"] == "none"
        for r in rapidjson
    ), rapidjson


def test_every_lab_parses_canada_into_a_document_and_the_report_sets_them_side_by_side(smoke_run):
    """And .NET reads it into its typed model, in a section of its own."""
    rows = [r for r in _rows(smoke_run) if r["dataset"] == "canada" and r["isa_requested"] == "native"]
    assert {(r["lab"], r["variant"]) for r in rows} == {
        ("reference-node", "json-string"),
        ("reference-node", "json-utf8"),
        ("dotnet", "stj-jsondocument"),
        ("dotnet", "newtonsoft-jtoken"),
        ("dotnet", "stj-default"),
        ("cpp", "simdjson-dom"),
        ("cpp", "rapidjson"),
    }
    for row in rows:
        assert row["status"] == "ok", row
        assert row["payload_bytes"] == 2_251_051, "the canonical-verified parse reads the whole file"
    report = (smoke_run / "report" / "report.md").read_text()
    section = report[report.index("## Cross-language") :]
    assert "### untyped-parse: canada (2,251,051 bytes of input)" in section
    assert (
        "### typed-deserialize: canada (2,251,051 bytes of input)" in section
    ), "the typed model, verified field by field"
    for variant in ("json-string", "json-utf8", "stj-jsondocument", "newtonsoft-jtoken", "simdjson-dom", "rapidjson"):
        assert f"| {variant}" in section
    assert "of speed of light" in section and "Speed of light: simdjson simdjson-dom (cpp gcc-12.2.0)" in section
    assert (smoke_run / "report" / "charts" / "cross-language-untyped-parse.png").is_file()
    assert (smoke_run / "report" / "tables" / "cross-language.csv").is_file()


def test_the_report_marks_verification_and_effective_isa(smoke_run):
    report = (smoke_run / "report" / "report.md").read_text()
    assert "| dotnet@10.0.12 | scalar | `DOTNET_EnableHWIntrinsic=0` | scalar | run |" in report
    assert "| dotnet@8.0.0 | scalar | `DOTNET_EnableHWIntrinsic=0` | scalar | run |" in report
    assert "| dotnet@3.1.3 | scalar | `COMPlus_EnableHWIntrinsic=0` | scalar | run |" in report
    assert "void: verification failed" in report
    assert "SystemTextCaseSensitive_Camel ⚠" in report
    assert (smoke_run / "report" / "charts" / "000-myclass-ratio-bars.png").is_file()
    assert (smoke_run / "report" / "charts" / "004-ser-bytes-1-ratio-bars.png").is_file()
    assert (
        smoke_run / "report" / "charts" / "000-myclass-runtime-sweep.png"
    ).is_file()  # the group ran on two runtimes
    if "| deser-string-1-jil |" in report and "Jil 3.0.0-alpha2" in report:
        assert "failed: Jil 3.0.0-alpha2 cannot deserialize ICollection<SimpleModel>: " in report
    environment = json.loads((smoke_run / "environment.json").read_text())
    assert (
        environment["labs"]["dotnet@8.0.0"]["env"]["libraries"]["System.Text.Json"] == "8.0.0"
    )  # in-box: moves with the runtime
    assert (
        environment["labs"]["dotnet@3.1.3"]["env"]["libraries"]["System.Text.Json"] == "3.1.3"
    )  # not the package BDN 0.14 brings
    assert environment["labs"]["dotnet@10.0.12"]["env"]["libraries"]["BenchmarkDotNet"].startswith("0.")


def test_cold_starts_time_whole_processes_on_the_jit_and_native_aot_builds(smoke_run):
    cold = {
        (r["benchmark"], r["isa_requested"], r["runtime_requested"]): r
        for r in _rows(smoke_run)
        if r["measure"] == "cold"
    }
    aot = cold[("cold-ser-stj-sourcegen-aot", "native", "10.0.12-aot")]
    jit = cold[("cold-ser-stj-sourcegen", "native", "10.0.12")]
    for row in (aot, jit):
        assert row["status"] == "ok" and row["n"] == 3 and row["engine_version"] == "hyperfine"
        assert 0 < row["prepare_median_ns"] and 0 < row["median_ns"] < 10e9  # a whole process, not a hang
        assert 10 << 20 < row["peak_rss_bytes"] < 1 << 30
        assert (smoke_run / row["raw_path"]).is_file()
    assert aot["runtime_version"] == "10.0.12" and jit["runtime_version"] == "10.0.12"
    # No JIT: the AOT process is several times shorter (measured here about 22 ms against 68-90 ms); a one-way check,
    # far
    # inside that margin. Its peak RSS is not smaller (48 vs 44 MiB): the AOT binary holds the whole lab program.
    assert aot["median_ns"] < jit["median_ns"]
    # Native AOT targets the SDK's default instruction set (x86-64-v2 on x64), whatever this CPU has, and reads that
    # back.
    assert aot["isa_flags"]["avx2"] is False
    # Failures are rows with the library's own reason, on that build only.
    reflection = cold[("cold-ser-stj", "native", "10.0.12-aot")]
    assert (
        reflection["status"] == "failed" and "Reflection-based serialization has been disabled" in reflection["error"]
    )
    legacy = cold[("cold-ser-stj-sourcegen", "native", "3.1.3")]
    assert legacy["status"] == "failed" and "source generation needs System.Text.Json 6.0" in legacy["error"]
    assert cold[("cold-ser-stj", "native", "3.1.3")]["status"] == "ok"
    # A switch the ahead-of-time code cannot honour is a failed level there, not a silent native measurement.
    assert "did not take effect" in cold[("cold-ser-stj-sourcegen-aot", "scalar", "10.0.12-aot")]["error"]
    report = (smoke_run / "report" / "report.md").read_text()
    assert (
        "## Cold start" in report
        and "| cold-ser-stj-sourcegen-aot | System.Text.Json (source generated) | 10.0.12-aot | " in report
    )
    assert (smoke_run / "report" / "charts" / "005-first-serialize-cold-start.png").is_file()
    assert (smoke_run / "report" / "tables" / "cold-start.csv").is_file()


def test_every_parser_of_every_lab_ran_the_whole_conformance_suite_and_the_report_has_the_matrix(smoke_run):
    records = [json.loads(line) for line in (smoke_run / "conformance.jsonl").read_text().splitlines()]
    by_parser: dict[tuple[str, str], list[dict]] = {}
    for record in records:
        by_parser.setdefault((record["lab"], record["parser"]), []).append(record)
    assert {lab for lab, _ in by_parser} == {"dotnet", "reference-node", "cpp"}
    assert ("cpp", "rapidjson") in by_parser and ("cpp", "rapidjson-strict") in by_parser
    assert ("dotnet", "stj-jsondocument") in by_parser and ("reference-node", "json-parse-buffer") in by_parser
    for (lab, parser), files in by_parser.items():
        assert len(files) == 318, (lab, parser)
        assert {f["outcome"] for f in files} <= {"accepted", "rejected", "crashed", "hung"}
    stj = {f["file"]: f["verdict"] for f in by_parser[("dotnet", "stj-jsondocument")]}
    assert stj["y_object_basic.json"] == "passed" and stj["n_array_extra_comma.json"] == "passed"
    report = (smoke_run / "report" / "report.md").read_text()
    assert "## Conformance (JSONTestSuite)" in report and "`json-parse-buffer`" in report
    assert (smoke_run / "report" / "tables" / "conformance.csv").is_file()


def test_every_chart_of_the_run_is_blog_ready_and_no_artefact_names_the_machine(smoke_run):
    """Every chart drawn again from the run: no overlapping text, no text across an error bar, bar charts fastest first,
    an alt text in the report; and no absolute path, host or user name in any chart, table or report page."""
    from analysis.charts.checks import bar_order, local_names, overlapping_texts, texts_on_error_bars
    from analysis.charts.style import alt_text, caption_for
    from analysis.compute.load import load_run
    from analysis.render.chart_specs import chart_specs
    from analysis.render.writer import report_inputs

    data = load_run(smoke_run)
    specs = chart_specs(report_inputs(data), functools.partial(caption_for, data.environment, data.run))
    assert {s.name.rsplit("-", 2)[-1] for s in specs} >= {"bars", "start"}, [s.name for s in specs]
    report = (smoke_run / "report" / "report.md").read_text()
    for spec in specs:
        fig = spec.draw()
        assert overlapping_texts(fig) == [], spec.name
        assert texts_on_error_bars(fig) == [], spec.name
        if spec.name.endswith("cold-start"):
            assert bar_order(fig)[0] == sorted(bar_order(fig)[0]), spec.name
        if spec.name.startswith("cross-language"):
            assert all(order == sorted(order, reverse=True) for order in bar_order(fig)), spec.name
        alt = alt_text(fig)
        assert alt and f"](charts/{spec.name}.png)" in report and f"![{spec.name}]" not in report, spec.name
    for path in (smoke_run / "report").rglob("*"):
        if path.suffix in (".md", ".html", ".svg", ".csv"):
            text = re.sub(r"data:[\w/+.-]+;base64,[A-Za-z0-9+/=]+", "", path.read_text(errors="replace"))
            assert local_names(text) == [], path


def test_the_next_plan_of_the_same_cells_is_learned_from_this_run_with_its_conformance_and_report(smoke_run):
    phases = [json.loads(line)["phase"] for line in (smoke_run / "timeline.jsonl").read_text().splitlines()]
    assert {"prepare", "session", "conformance", "report"} <= set(phases)
    done = subprocess.run(
        [sys.executable, "-m", "harness", "plan", "--profile", "smoke", "--results-dir", str(smoke_run.parent)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert re.search(rf"learned for (\d+) of \1 cells from run {smoke_run.name}\)", done.stdout), done.stdout
    assert (
        "with the conformance pass (" in done.stdout
        and f"`just run-all` adds, as in run {smoke_run.name}" in done.stdout
    )
