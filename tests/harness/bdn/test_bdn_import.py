"""`just import`: BenchmarkDotNet reports as published (tests/fixtures/bdn-reports, the five seed write-ups' tables and
BenchmarkDotNet 0.11 and 0.15 reports) into experiment files whose claims carry the reports' numbers."""

from __future__ import annotations

import math
import pathlib
import re

import pytest
import tomllib

from harness.bdn.hardware import stand_ins
from harness.bdn.importer import import_reports
from harness.bdn.jobs import isa_level_of, runtime_of
from harness.bdn.report_tables import STATISTICS, read_report
from harness.bdn.units import parse_ratio, parse_size_bytes, parse_time_ns
from harness.cli import main
from harness.config.experiment.claim_tables import expand_claim_tables
from harness.config.experiment.experiments import load_experiments
from harness.config.isa import load_isa_table
from harness.config.lab.labs import load_labs
from tests.conftest import FIXTURES

REPORTS = FIXTURES / "bdn-reports"
DOTNET = load_labs()["dotnet"]
ISA = load_isa_table()


def _loads(text: str) -> dict:
    """The imported file's TOML with its claim tables expanded into claims, as the experiment loader reads it."""
    data = tomllib.loads(text)
    expand_claim_tables(data, pathlib.Path("imported.toml"))
    return data


def _import(pattern: str, exp_id: str = "950"):
    return import_reports(sorted(REPORTS.glob(pattern)), exp_id, DOTNET, ISA)


@pytest.mark.parametrize(
    "text, ns",
    [
        ("1,536.0 ns", 1536.0),
        ("512.3 ps", 0.5123),  # BenchmarkDotNet prints a mean under 1 ns in picoseconds
        ("1.671 μs", 1671.0),
        ("1.671 µs", 1671.0),
        ("1.511 us", 1511.0),
        ("20.88 ms", 20_880_000.0),
        ("2.5 s", 2.5e9),
        ("NA", None),
        ("?", None),
        ("12 parsecs", None),
    ],
)
def test_times_in_every_unit_become_nanoseconds(text, ns):
    assert parse_time_ns(text) == ns


def test_a_unit_in_the_column_header_applies_to_bare_numbers():
    assert parse_time_ns("1.5", "us") == 1500.0


@pytest.mark.parametrize(
    "text, parsed",
    [
        ("224 B", (224, 0)),
        ("3104 B", (3104, 0)),
        ("3.03 KB", (3103, 6)),
        ("753.66 KB", (771748, 6)),
        ("6.4 MB", (6710886, 5243)),
        ("-", (0, 0)),
        ("0 B", (0, 0)),
        ("NA", None),
        ("12 parsecs", None),
    ],
)
def test_sizes_become_bytes_with_the_rounding_of_their_unit(text, parsed):
    assert parse_size_bytes(text) == parsed


@pytest.mark.parametrize(
    "text, ratio",
    [
        ("0.51", 0.51),
        ("1.00", 1.0),
        ("baseline", 1.0),
        ("1.47x slower", 1.47),
        ("2.00x faster", 0.5),
        ("NA", None),
        ("?", None),
        ("-", None),
    ],
)
def test_ratios_in_both_styles(text, ratio):
    assert parse_ratio(text) == ratio


def test_every_seed_table_is_read_and_nothing_is_dropped():
    for path in REPORTS.glob("*-report-github.md"):
        for table in read_report(path):
            assert table.rows, path.name
            unread = [u.line for u in table.unread]
            assert unread == ([15] if path.name.startswith("format-0.11") else []), (path.name, table.unread)


@pytest.mark.parametrize(
    "name, version, cpu, runtime, level",
    [
        (
            "000-4-comment-extended",
            "0.12.0",
            "Intel Core i7-6700 CPU 3.40GHz (Skylake)",
            ".NET Core 5.0.0",
            "no-avx512",
        ),
        ("001-1-newtonsoft", "0.12.1", "Intel Core i7-8559U CPU 2.70GHz (Coffee Lake)", ".NET Core 5.0.4", "no-avx512"),
        (
            "002-01-escaping",
            "0.11.5.1159-nightly",
            "Intel Core i7-6700 CPU 3.40GHz (Skylake)",
            ".NET Core 3.0.0",
            "no-avx512",
        ),
        ("004-1-serialize-string-1", "0.13.12", "13th Gen Intel Core i9-13905H", ".NET 8.0.0", "no-avx512"),
        (  # no instruction set on the line: the CPU's, a Broadwell (harness/config/cpu_models.toml)
            "format-0.11-JsonLab.Bench.Escaping",
            "0.11.5",
            "Intel Xeon CPU E5-2673 v4 2.30GHz",
            ".NET Core 2.2.6",
            "no-avx512",
        ),
        (
            "format-0.15-JsonLab.Bench.RuntimeBaseline",
            "0.15.8",
            "Intel Xeon Platinum 8370C CPU 2.80GHz",
            ".NET 10.0.0",
            "native",
        ),
    ],
)
def test_the_header_of_each_benchmarkdotnet_version(name, version, cpu, runtime, level):
    (table,) = read_report(REPORTS / f"{name}-report-github.md")
    env = table.environment
    assert (env.bdn_version, env.cpu) == (version, cpu)
    line = next(iter(env.measured_jobs.values()))
    assert runtime_of(line) == runtime
    assert isa_level_of(line, env.cpu)[0] == level


def test_stand_in_runtimes_follow_the_published_version():
    # nearest first: 8.0.31 is 9 patch releases from 8.0.22, 8.0.0 is 22 (issue 47: the import proposed 8.0.0)
    assert stand_ins(".NET 8.0.22", None, DOTNET) == ["8.0.31", "8.0.0"]
    assert stand_ins(".NET 8.0.3", None, DOTNET) == ["8.0.0", "8.0.31"]
    assert stand_ins(".NET 10.0.0", None, DOTNET) == [
        "10.0.12"
    ]  # never the Native AOT build: it cannot measure steady state
    assert stand_ins(".NET Core 3.0.0", None, DOTNET) == ["3.1.3"]
    assert stand_ins(None, "3.1.100", DOTNET) == ["3.1.3"]  # only the SDK printed
    assert stand_ins(".NET Core 5.0.4", None, DOTNET) == [] and stand_ins(".NET Framework 4.8.1", None, DOTNET) == []


@pytest.mark.parametrize("seed", ["000", "001", "002", "003", "004"])
def test_a_seeds_tables_give_exactly_the_claims_typed_by_hand_with_the_same_numbers(seed):
    """Every figure of the write-up's experiment (typed from the same tables) comes out of the import, number for
    number."""
    claims = _loads(_import(f"{seed}-*-report-github.md").text)["claims"]
    # claims across runtimes pair rows of two tables (two machines): composed by hand, not imported from one table
    typed = [c for c in load_experiments()[seed].claims if "runtime" not in dict(c.at)]
    assert len(claims) == len(typed)
    for claim in claims:
        same = [
            t
            for t in typed
            if t.mean_ns is not None
            and math.isclose(t.mean_ns, claim.get("mean_ns", -1), rel_tol=1e-12)
            or t.mean_ns is None
            and claim.get("mean_ns") is None
            and t.allocated_bytes == claim.get("allocated_bytes")
            and t.published_variant == claim["published_variant"]
        ]
        assert same, claim
        assert same[0].allocated_bytes in (None, claim.get("allocated_bytes"))
        assert same[0].ratio is None or claim.get("ratio") is None or same[0].ratio == claim["ratio"]
        for field in STATISTICS.values():  # the row's own statistics, typed from the write-up, read alike
            typed_value = getattr(same[0], field)
            if typed_value is not None:
                assert math.isclose(typed_value, claim[field], rel_tol=1e-9), (claim, field)
        typed.remove(same[0])


def test_the_extended_table_becomes_a_group_with_its_ratio_baseline_and_printed_ratios():
    result = _import("000-4-comment-extended-report-github.md")
    data = _loads(result.text.replace('"TODO', '"x'))
    (group,) = data["groups"]
    assert group["baseline"] == "NewtonSoftJson_Camel"
    camel = next(c for c in data["claims"] if c["published_variant"] == "SystemTextCaseInsensitive_Camel")
    assert (camel["mean_ns"], camel["published_mean"], camel["ratio"], camel["allocated_bytes"]) == (
        1536.0,
        "1,536.0 ns",
        0.86,
        304,
    )
    assert camel["baseline"] == "NewtonSoftJson_Camel" and "derived_baseline" not in camel
    hardware = data["hardware"]["H1"]
    assert hardware["isa_level"] == "no-avx512" and hardware["runtime"] == ".NET Core 5.0.0"
    assert "# from the report: Skylake CPU" in result.text


def test_a_table_without_ratios_derives_them_and_leaves_its_baseline_to_choose():
    result = _import("000-1-case-sensitivity-report-github.md")
    assert result.no_baseline == ["000-1-case-sensitivity"]
    assert "# The report marks no baseline for these rows" in result.text
    assert _loads(result.text)["groups"][0]["title"].startswith("TODO: choose the baseline")
    claim = _loads(result.text)["claims"][1]
    assert (
        claim["derived_baseline"] == "SystemTextCaseSensitive_Pascal"
        and claim["published_baseline"] == "none"
        and "ratio" not in claim
    )


def test_a_parameter_column_makes_one_group_per_value_with_its_ratio_1_row_as_baseline():
    data = _loads(_import("002-01-escaping-report-github.md").text)
    assert len(data["groups"]) == 27 and all(g["baseline"].startswith("NeedsEscapingCurrent") for g in data["groups"])
    scenarios = {c["scenario"] for c in data["claims"]}
    assert "002-01-escaping (TestStringData=(100,(...)kuwu) [111])" in scenarios
    assert data["published_versions"]["BenchmarkDotNet"] == "0.11.5.1159-nightly"


def test_rows_that_cannot_be_read_are_listed_in_the_file_and_the_result():
    result = _import("format-0.11-*-report-github.md")
    assert [(u.line, u.reason.split(" (")[0]) for u in result.unread] == [(15, "Mean 'NA' is not a time")]
    assert re.search(
        r"^#   bdn-reports/format-0\.11-JsonLab\.Bench\.Escaping-report-github\.md line 15: Mean 'NA'",
        result.text,
        re.M,
    )
    data = _loads(result.text)
    assert [c["published_variant"] for c in data["claims"]] == [
        "Scalar",
        "Vectorized",
        "Scalar",
        "Vectorized",
        "Fallback",
    ]
    assert data["claims"][0]["allocated_bytes"] == 0  # '-': nothing allocated
    hardware = data["hardware"]["H1"]  # the job line names no instruction set: the CPU's, a Broadwell, is read
    assert (hardware["isa_level"], hardware["microarchitecture"]) == ("no-avx512", "broadwell")


def test_two_runtimes_in_one_table_are_two_hardware_entries_one_group_per_count_and_claims_across_runtimes():
    data = _loads(_import("format-0.15-JsonLab.Bench.Deserialize-report-github.md").text)
    hardware = {h["runtime"]: h for h in data["hardware"].values()}
    assert hardware[".NET 10.0.0"]["lab_runtimes"] == ["10.0.12"] and hardware[".NET 8.0.22"]["lab_runtimes"] == [
        "8.0.31",
        "8.0.0",
    ]
    assert {h["isa_level"] for h in hardware.values()} == {"no-avx512"}  # x86-64-v3
    assert len(data["groups"]) == 2 and len(data["benchmarks"]) == 4  # one benchmark per figure, on both runtimes
    across = [c for c in data["claims"] if c["scenario"] == "Deserialize (Count=1): Stj across runtimes"]
    assert [(c["at"]["runtime"], c["reference_at"]["runtime"], c["mean_ns"]) for c in across] == [
        ("8.0.31", "8.0.31", 198.4),  # the older runtime's row is the reference
        ("10.0.12", "8.0.31", 151.2),
    ]
    kb = next(c for c in data["claims"] if c.get("published_mean") == "181.36 μs")
    assert (kb["mean_ns"], kb["allocated_bytes"], kb["allocated_tolerance_bytes"], kb["ratio"]) == (
        181360.0,
        100895,
        6,
        0.51,
    )


def test_a_ratio_to_a_baseline_on_another_runtime_is_derived_within_the_runtime_and_noted():
    data = _loads(_import("format-0.15-JsonLab.Bench.RuntimeBaseline-report-github.md").text)
    newer = next(c for c in data["claims"] if "NET 10.0" in c["scenario"])
    assert "ratio" not in newer and newer["derived_baseline"] == newer["benchmark"]
    assert "a ratio across runtimes" in newer["note"] and "0.87" in newer["note"]
    assert {h["isa_level"] for h in data["hardware"].values()} == {"native"}  # x86-64-v4


def test_a_runtime_column_beside_generated_job_ids_reads_each_job_line_s_runtime_and_isa():
    """Issue 47: with a Runtime column and job ids the table does not print, the job lines were not found: the hardware
    was named '.NET 8.0' without its build, and its ISA was a TODO ("the header names no instruction set") though the
    lines say AVX2."""
    data = _loads(_import("format-0.13-RuntimeColumn-report-github.md").text)
    hardware = {h["runtime"]: h for h in data["hardware"].values()}
    assert set(hardware) == {".NET 6.0.29", ".NET 8.0.4"}
    assert {h["isa_level"] for h in hardware.values()} == {"no-avx512"}  # AVX2 on the job lines
    assert hardware[".NET 8.0.4"]["lab_runtimes"] == ["8.0.0", "8.0.31"]


def test_an_imported_file_once_its_todos_are_filled_passes_every_check(tmp_path, capsys):
    text = _import("000-4-comment-extended-report-github.md", "900").text
    folder = tmp_path / "experiments"
    folder.mkdir()
    (folder / "900-imported.toml").write_text(text)
    assert main(["check", "--experiments-dir", str(folder)]) == 2
    assert "field(s) still say TODO" in capsys.readouterr().err
    filled = re.sub(r'variant = "TODO[^"]*"', 'variant = "stj-default"', text)
    filled = re.sub(r'dataset = "TODO[^"]*"', 'dataset = "myclass-camel"', filled)
    filled = re.sub(r'lab_runtimes = \["TODO[^"]*"\]', 'lab_runtimes = ["8.0.0"]', filled)
    filled = re.sub(r'operation = "TODO[^"]*"', 'operation = "deserialize"', filled)
    filled = re.sub(r'(title|writeup) = "TODO[^"]*"', r'\1 = "filled"', filled)
    (folder / "900-imported.toml").write_text(filled)
    assert main(["check", "--experiments-dir", str(folder)]) == 0, capsys.readouterr().err
    assert "ok  experiment 900  13 benchmarks, 13 claims" in capsys.readouterr().out


def test_the_import_command_writes_the_file_and_summarizes(tmp_path, capsys):
    out = tmp_path / "950-imported.toml"
    reports = [str(p) for p in sorted(REPORTS.glob("001-*-report-github.md"))]
    assert main(["import", *reports, "--id", "950", "--out", str(out)]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip() == str(out) and out.read_text().startswith("#:schema ./experiment.schema.json\n")
    assert "imported 7 claim(s) from 4 table(s);" in captured.err
    assert main(["import", *reports, "--id", "950", "--out", str(out)]) == 2  # never overwrites
    assert "exists" in capsys.readouterr().err
    assert main(["import", reports[0], "--out", "-", "--id", "950"]) == 0
    assert 'id = "950"' in capsys.readouterr().out


def test_a_file_without_a_table_is_refused(tmp_path, capsys):
    (tmp_path / "notes.md").write_text("# no table here\n")
    assert main(["import", str(tmp_path / "notes.md"), "--out", "-"]) == 2
    assert "holds no BenchmarkDotNet table" in capsys.readouterr().err
